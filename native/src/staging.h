// The connector's own memory for the bytes of a guarded batch (kvt_load and kvt_store with a
// guard), which Mooncake reads and writes instead of the caller's buffers (a load's replica in the
// client's own segment aside: read_path.cpp). A batch's deadline may
// complete it while its native call goes on, and from then on the caller may reuse its slices:
// copied in and out under the batch's guard, no byte of the caller's is touched once its batch
// completed, however Mooncake moves the bytes. A transfer Mooncake gave up on may still send from
// or write into its staging (seen on a flapping link), so a key's staging whose transfer failed is
// quarantined for kLateTransfers.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace kvt_staging {

// As long as a transfer Mooncake gave up on can go on: its fixed 60 s, and some.
constexpr auto kLateTransfers = std::chrono::seconds(90);

// The guard's handshake (KVT_GUARD_* in kvtier_mooncake.h): true once moved from OPEN to COPYING,
// false when the caller closed it. Waits while another thread of the batch holds it.
bool hold(int32_t *guard);
void release(int32_t *guard);

// Runs `body` while holding `guard`; returns false, without running it, once the guard is closed.
template <class Body>
bool while_held(int32_t *guard, Body &&body) {
    if (!hold(guard)) return false;
    const std::unique_ptr<int32_t, void (*)(int32_t *)> release_after(guard, release);
    body();
    return true;
}

// Memory of its own mapping, so that its pages can go back to the kernel while a late transfer may
// still write into it: such a write then lands in a fresh zero page, harmlessly.
struct Unmap {
    size_t mapped;
    void operator()(char *bytes) const;
};
using Bytes = std::unique_ptr<char, Unmap>;

// Staging memory of one client, reused by its pages' size: a KV cache moves objects of a few sizes.
class Pool {
   public:
    // Free memory beyond this is unmapped: enough for several batches in flight.
    static constexpr size_t kKeptBytes = size_t{1} << 30;

    // Memory of `size` bytes, not zeroed beyond what the kernel does; throws std::bad_alloc.
    Bytes take(size_t size);
    // For reuse; when `late`, not for kLateTransfers, and its pages go back to the kernel meanwhile,
    // so that a fault with thousands of failed transfers does not hold their memory.
    void give_back(Bytes bytes, bool late);

   private:
    struct Held {
        std::chrono::steady_clock::time_point until;
        Bytes bytes;
    };
    void release_expired(std::chrono::steady_clock::time_point now);  // under mu_
    void keep(Bytes bytes);                                           // under mu_

    std::mutex mu_;
    std::unordered_map<size_t, std::vector<Bytes>> free_;
    size_t free_bytes_ = 0;
    std::deque<Held> quarantine_;
};

// The buffers Mooncake reads or writes for one batch. Staged (the batch has a guard): one buffer
// of staging per key, sized as the caller's, each back to the pool when the batch is done, or into
// quarantine when marked late(). Not staged: the caller's own (RDMA, where the NIC writes L1).
class Batch {
   public:
    Batch(Pool &pool, const std::vector<void *> &callers, const std::vector<size_t> &lens, bool staged);
    ~Batch();
    Batch(const Batch &) = delete;
    Batch &operator=(const Batch &) = delete;

    const std::vector<void *> &buffers() const { return pointers_; }
    // A transfer of key i failed or may still run: its memory is quarantined.
    void late(size_t i) { late_[i] = true; }
    void all_late() { late_.assign(late_.size(), true); }

   private:
    Pool &pool_;
    std::vector<Bytes> bytes_;  // empty when not staged
    std::vector<void *> pointers_;
    std::vector<bool> late_;
};

}  // namespace kvt_staging
