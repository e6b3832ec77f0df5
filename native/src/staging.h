// The connector's own memory for the bytes of a guarded batch (kvt_load and kvt_store with a
// guard), which Mooncake reads and writes instead of the caller's buffers.
//
// Why: a batch's deadline may complete it while its native call goes on, and from then on the
// caller may reuse its slices. Mooncake only ever touches staging memory, so no byte of the caller's
// is read or written once its batch completed, however Mooncake moves the bytes (which thread
// connects or receives, how many connections, which symbols): a store copies its slices into
// staging before the put, and a load copies what it read out of staging, each under the batch's
// guard. A transfer that Mooncake gave up on may still send from or write into its staging memory
// (seen on a flapping link), so a key's staging whose transfer failed is quarantined for
// kLateTransfers before it is used again.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <new>
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
    try {
        body();
    } catch (...) {
        release(guard);
        throw;
    }
    release(guard);
    return true;
}

// Memory of its own mapping, so that its pages can go back to the kernel while a late transfer may
// still write into it: such a write then lands in a fresh zero page, harmlessly.
class Bytes {
   public:
    Bytes() = default;
    explicit Bytes(size_t size);  // not zeroed beyond what the kernel does; throws std::bad_alloc
    ~Bytes();
    Bytes(Bytes &&other) noexcept;
    Bytes &operator=(Bytes &&other) noexcept;
    Bytes(const Bytes &) = delete;
    Bytes &operator=(const Bytes &) = delete;

    char *get() const { return bytes_; }
    // Gives the pages back to the kernel; the mapping stays, and reads as zeros until written.
    void release_pages();

   private:
    char *bytes_ = nullptr;
    size_t mapped_ = 0;
};

// Staging memory of one client, reused by size: a KV cache moves objects of a few sizes.
class Pool {
   public:
    // Cached free memory beyond this is freed: enough for several batches in flight.
    static constexpr size_t kKeptBytes = size_t{1} << 30;

    // Memory of `size` bytes, not zeroed.
    Bytes take(size_t size);
    void give_back(size_t size, Bytes bytes);
    // Not used again for kLateTransfers; its pages go back to the kernel meanwhile, so that a fault
    // with thousands of failed transfers does not hold their memory.
    void quarantine(size_t size, Bytes bytes);

   private:
    struct Held {
        std::chrono::steady_clock::time_point until;
        size_t size;
        Bytes bytes;
    };
    void release_expired(std::chrono::steady_clock::time_point now);  // under mu_

    std::mutex mu_;
    std::unordered_map<size_t, std::vector<Bytes>> free_;
    size_t free_bytes_ = 0;
    std::deque<Held> quarantine_;
};

// The staging memory of one batch: one buffer per key, sized as the caller's. Each goes back to
// the pool when the batch is done, or into quarantine when marked late().
class Batch {
   public:
    Batch(Pool &pool, const std::vector<size_t> &lens);
    ~Batch();
    Batch(const Batch &) = delete;
    Batch &operator=(const Batch &) = delete;

    const std::vector<void *> &buffers() const { return pointers_; }
    // A transfer of key i failed or may still run: its memory is quarantined.
    void late(size_t i) { late_[i] = true; }
    void all_late() { late_.assign(late_.size(), true); }

   private:
    Pool &pool_;
    std::vector<size_t> lens_;
    std::vector<Bytes> bytes_;
    std::vector<void *> pointers_;
    std::vector<bool> late_;
};

}  // namespace kvt_staging
