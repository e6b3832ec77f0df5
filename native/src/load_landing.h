// The caller's buffers of a load in progress (kvt_load), which Mooncake writes only while the
// call runs and its batch's guard is held.
//
// Why: a load's batch may complete (its deadline) while its native call goes on, and from then on
// the caller may reuse its slices. A load once landed its bytes in staging memory and copied them
// into the caller's buffers under the guard: a second pass over every byte loaded, not overlapped
// with the transfer (across hosts, loads at one batch in flight moved 0.62-0.91 of Mooncake's own
// client, docs/bench). Now Mooncake's TCP transport receives straight into the caller's buffers.
// Every connection a load's transfer opens is its call's (Mooncake connects on the thread that
// submits a transfer, and the connector reads each node on a thread of its own), and each receive
// on it into the call's buffers asks here first (src/node_hearing.cpp's recv wrappers): it runs
// while the guard is held, and is refused once the guard is closed or the call has returned, which
// fails the transfer as a reset connection would. That also covers a transfer Mooncake reported
// failed that still delivers bytes afterwards (seen on a flapping link): once its call returned,
// it cannot write the buffers the next call reads into. The object checksum of a loaded key, which
// Mooncake computes on the submitting thread after the transfer, reads the buffer under the guard
// as well (src/object_checksum.cpp): a buffer the caller has taken back must not look corrupted.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "store_sources.h"

namespace kvt_landing {

// One kvt_load call's buffers and guard, shared with the connections its transfers opened.
struct State {
    int32_t *guard;  // valid only until `ended`
    std::vector<std::pair<uintptr_t, uintptr_t>> buffers;  // [start, end)
    bool ended = false;  // under `ending`
    std::shared_mutex ending;  // held shared by each write in progress, exclusively to end the call
    std::atomic<bool> refused{false};

    bool overlaps(uintptr_t start, uintptr_t end) const;
};

// A connection's call: the one of the thread that opened it, or none (null).
using Connection = std::shared_ptr<State>;

// A load call whose transfers write `buffers` only under `guard`.
class Call {
   public:
    Call(int32_t *guard, const std::vector<void *> &buffers, const std::vector<size_t> &lens);
    // Waits for the writes in progress; no later write of its connections reaches its buffers.
    ~Call();
    Call(const Call &) = delete;
    Call &operator=(const Call &) = delete;

    // Whether a write or a check of the buffers was refused (the guard was closed): the keys'
    // failures since may be the refusal's, not their nodes'.
    bool refused() const { return state_->refused.load(std::memory_order_relaxed); }

    const Connection &connection() const { return state_; }

   private:
    Connection state_;
};

// While one lives, this thread reads keys of a load: the checksums it computes are of a load's
// buffers, whose guard the load holds as a whole (a copy from this process's own segment), or
// that `call` admits (transfers, whose connections this thread opens are then `call`'s).
class OnThisThread {
   public:
    OnThisThread();
    explicit OnThisThread(const Call &call);
    ~OnThisThread();
    OnThisThread(const OnThisThread &) = delete;
    OnThisThread &operator=(const OnThisThread &) = delete;

   private:
    Connection before_;
    bool was_loading_;
};

// This thread's call (OnThisThread), or none.
const Connection &current();
// Whether this thread reads keys of a load (OnThisThread): then no checksum it computes is a
// store's, whose buffers src/store_sources.h guards.
bool loading();

// The socket `fd` is opened (connect) or closed: it belongs to this thread's call, or to none.
void connecting(int fd);
void closing(int fd);
// The call of the socket `fd`, or none.
Connection of(int fd);

// Runs `body`, which writes or reads [p, p + n), unless that memory is a buffer of `call` and the
// call has returned or its guard is closed. Returns false when refused (the call records it).
template <class Body>
bool admit(const Connection &call, const void *p, size_t n, Body &&body) {
    const auto start = reinterpret_cast<uintptr_t>(p);
    if (call == nullptr || n == 0) {
        body();
        return true;
    }
    std::shared_lock<std::shared_mutex> running(call->ending);
    if (!call->overlaps(start, start + n)) {
        body();
        return true;
    }
    if (call->ended || !kvt_sources::while_held(call->guard, body)) {
        call->refused.store(true, std::memory_order_relaxed);
        return false;
    }
    return true;
}

}  // namespace kvt_landing
