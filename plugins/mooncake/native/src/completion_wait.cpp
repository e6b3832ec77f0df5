// Mooncake's wait for a batch's transfers, as linked into the connector, pauses between its polls
// (-Wl,--wrap on TransferEngine::getTransferStatus, real connector only; wraps.cmake).
//
// Why: without USE_EVENT_DRIVEN_COMPLETION Mooncake polls every task's status in a loop that never
// sleeps, a core per batch call in flight; with 4 in flight on 2 cores a third of all CPU time went
// to that loop (perf, 1 MiB objects to 2 nodes), taken from the transfers themselves.
//
// What: a poll that finds the batch still running since its previous pass first sleeps an eighth
// of the batch's wait so far, at most kLongestPause: a short batch is polled at once, a long one
// waits at most about an eighth longer than it must.

#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "transfer_engine.h"

using mooncake::Status;
using mooncake::TransferEngine;
using TransferStatus = mooncake::Transport::TransferStatus;

extern "C" Status __real__ZN8mooncake14TransferEngine17getTransferStatusEmmRNS_9Transport14TransferStatusE(
    TransferEngine *engine, uint64_t batch, size_t task, TransferStatus &status);

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kLongestPause = std::chrono::microseconds(100);

// Mooncake's own idea of a task still in progress: neither done nor failed.
bool running(const TransferStatus &status) {
    using E = mooncake::Transport::TransferStatusEnum;
    return status.s != E::COMPLETED && status.s != E::FAILED && status.s != E::CANCELED &&
           status.s != E::INVALID;
}

// A poll this long after the previous one starts a new wait, even of the same batch ID (Mooncake
// reuses the IDs of freed batches): no pause is that long.
constexpr auto kNewWait = std::chrono::milliseconds(1);

// This thread's current wait: Mooncake polls tasks 0, 1, ... of one batch, pass after pass.
struct Wait {
    uint64_t batch = 0;
    size_t last_task = SIZE_MAX;
    bool saw_running = false;  // whether the pass so far found a task still running
    Clock::time_point since, last_poll;
};

thread_local Wait current;

void pause_for(Clock::duration waited) {
    const auto pause = std::min<Clock::duration>(waited / 8, kLongestPause);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(pause).count();
    if (ns <= 0) return;
    // The kernel lets a sleep run over by the thread's timer slack, 50 µs by default: longer than
    // the short pauses, which added that much to every read of a small object (measured).
    thread_local const bool precise = prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0) == 0;
    (void)precise;
    const timespec ts{0, static_cast<long>(ns)};
    nanosleep(&ts, nullptr);
}

}  // namespace

extern "C" Status __wrap__ZN8mooncake14TransferEngine17getTransferStatusEmmRNS_9Transport14TransferStatusE(
    TransferEngine *engine, uint64_t batch, size_t task, TransferStatus &status) {
    const auto now = Clock::now();
    if (batch != current.batch || now - current.last_poll > kNewWait) {
        current = Wait{batch, task, false, now, now};
    } else if (task <= current.last_task) {  // a new pass over the same batch
        if (current.saw_running) pause_for(now - current.since);
        current.saw_running = false;
    }
    current.last_task = task;
    current.last_poll = now;
    Status got = __real__ZN8mooncake14TransferEngine17getTransferStatusEmmRNS_9Transport14TransferStatusE(
        engine, batch, task, status);
    if (got.ok() && running(status)) current.saw_running = true;
    return got;
}
