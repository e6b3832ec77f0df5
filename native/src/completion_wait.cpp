// Mooncake's wait for a batch's transfers, as linked into the connector, pauses between its polls
// (-Wl,--wrap on TransferEngine::getTransferStatus, on the connector only).
//
// Why: Mooncake (built without USE_EVENT_DRIVEN_COMPLETION, its default) waits for a transfer
// batch by polling every task's status in a loop that never sleeps nor yields, reading the clock
// and taking a mutex on every pass. Each batch call in flight so keeps a core busy while its bytes
// move. On a client whose cores also carry the transfers (its I/O thread, the kernel's TCP work)
// that spinning is the bottleneck: with 4 batches in flight on 2 cores, a third of all CPU time
// went to clock_gettime in that loop (perf, Mooncake's own C client, 1 MiB objects to 2 nodes).
//
// What: a poll that finds the batch still running since its previous pass sleeps first, for an
// eighth of the time the batch has waited so far, at most kLongestPause. A short batch is still
// polled at once, and a long one waits at most about an eighth longer than it must (plus the
// kernel's timer slack), while the core goes to the transfers.

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
