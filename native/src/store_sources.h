// The caller's buffers of the stores in progress (kvt_store), which Mooncake reads only while
// their batch's guard is held.
//
// Why: a store's batch may complete (its deadline) while its native call goes on, and from then
// on the caller may reuse its slices. A store once copied its slices into staging memory first, a
// second copy of every byte stored (half the throughput on loopback). Now Mooncake reads the
// caller's buffers itself, at the three places where it reads a store's bytes, each of which asks
// here first: its TCP transport's sends (src/source_reads.cpp), its local memcpy into a replica
// in this process's own segment (the same), and the object checksum (src/object_checksum.cpp).
// A read of a registered buffer whose guard is closed is refused: the send fails (the transfer
// fails, and the put with it), the memcpy is skipped (kvt_store removes the object afterwards).
//
// A call in which some key failed (or that threw) may leave transfers behind it, which Mooncake
// gave up waiting for but which may still send: its buffers stay closed to sends for kLateTransfers
// after it returns, except to another store of them.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace kvt_sources {

// As long as a transfer Mooncake gave up on can go on: its fixed 60 s, and some.
constexpr auto kLateTransfers = std::chrono::seconds(90);

// The guard's handshake (KVT_GUARD_* in kvtier_mooncake.h): true once moved from OPEN to COPYING,
// false when the caller closed it. Waits while another thread holds it.
bool hold(int32_t *guard);
void release(int32_t *guard);

// Runs `body` while holding `guard`; returns false, without running it, once the guard is closed.
template <class Body>
bool while_held(int32_t *guard, Body &&body) {
    if (!hold(guard)) return false;
    try {
        body();
    } catch (...) {
        release(guard);
        throw;
    }
    release(guard);
    return true;
}

// What a read asked about: a buffer of no store in progress, or a store's read under its guard
// (run), or a store's read refused because its batch completed (not run).
enum class Read { unguarded, guarded, refused };

// Runs `body` (which reads from `p`) unless `p` lies in a registered buffer whose guard is closed,
// or in a buffer closed after its call: for a send, which a transfer may make after its call.
template <class Body>
Read read(const void *p, Body &&body);

// The same for a read that happens only within a kvt_store call (a local copy, the object
// checksum): buffers closed after their call are not asked about, since the same memory may be
// anything by now (a load's, whose checksum is verified through the same code).
template <class Body>
Read read_in_call(const void *p, Body &&body);

// While alive, the buffers of one kvt_store call are registered under `guard`.
class Registration {
   public:
    Registration(int32_t *guard, const std::vector<void *> &buffers, const std::vector<size_t> &lens);
    ~Registration();
    Registration(const Registration &) = delete;
    Registration &operator=(const Registration &) = delete;

    // Every key of the call was stored: no transfer of it is left to send. Until told so, the
    // buffers stay closed for kLateTransfers once the registration ends.
    void all_stored() { all_stored_ = true; }
    // Whether a read of buffer i was refused: a memcpy into a replica skipped, its bytes unknown.
    bool refused(size_t i) const;

    struct Buffers;

   private:
    std::shared_ptr<Buffers> buffers_;
    bool all_stored_ = false;
};

namespace detail {
// False when no registered buffer can hold `p`: the common case, answered without a lock.
bool may_hold(const void *p);
// The guard held for a read at `p`: null and no refusal when no registered buffer holds `p`.
// *refused is set when buffers hold `p` but every one's guard is closed (the read is recorded), or
// when `late` and a buffer closed after its call holds `p`.
int32_t *guard_for(const void *p, bool late, bool *refused);

template <class Body>
Read read(const void *p, bool late, Body &&body) {
    if (!may_hold(p)) {
        body();
        return Read::unguarded;
    }
    bool refused = false;
    int32_t *guard = guard_for(p, late, &refused);
    if (refused) return Read::refused;
    if (guard == nullptr) {
        body();
        return Read::unguarded;
    }
    try {
        body();
    } catch (...) {
        release(guard);
        throw;
    }
    release(guard);
    return Read::guarded;
}
}  // namespace detail

template <class Body>
Read read(const void *p, Body &&body) {
    return detail::read(p, true, std::forward<Body>(body));
}

template <class Body>
Read read_in_call(const void *p, Body &&body) {
    return detail::read(p, false, std::forward<Body>(body));
}

}  // namespace kvt_sources
