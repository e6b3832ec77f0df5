#include "staging.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <new>
#include <thread>
#include <utility>

#include "kvtier_mooncake.h"

namespace kvt_staging {

void Unmap::operator()(char *bytes) const { munmap(bytes, mapped); }

bool hold(int32_t *guard) {
    while (true) {
        int32_t expected = KVT_GUARD_OPEN;
        if (__atomic_compare_exchange_n(guard, &expected, KVT_GUARD_COPYING, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST))
            return true;
        if (expected == KVT_GUARD_CLOSED) return false;
        std::this_thread::yield();  // another thread of this batch is copying
    }
}

void release(int32_t *guard) { __atomic_store_n(guard, KVT_GUARD_OPEN, __ATOMIC_SEQ_CST); }

Bytes Pool::take(size_t size) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t mapped = (std::max<size_t>(size, 1) + page - 1) / page * page;
    {
        std::lock_guard<std::mutex> lock(mu_);
        release_expired(std::chrono::steady_clock::now());
        auto it = free_.find(mapped);
        if (it != free_.end() && !it->second.empty()) {
            Bytes bytes = std::move(it->second.back());
            it->second.pop_back();
            free_bytes_ -= mapped;
            return bytes;
        }
    }
    void *p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return Bytes(static_cast<char *>(p), Unmap{mapped});
}

void Pool::give_back(Bytes bytes, bool late) {
    if (!late) {
        std::lock_guard<std::mutex> lock(mu_);
        keep(std::move(bytes));
        return;
    }
    madvise(bytes.get(), bytes.get_deleter().mapped, MADV_DONTNEED);
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(mu_);
    release_expired(now);
    quarantine_.push_back({now + kLateTransfers, std::move(bytes)});
}

void Pool::keep(Bytes bytes) {
    const size_t mapped = bytes.get_deleter().mapped;
    if (free_bytes_ + mapped > kKeptBytes) return;  // freed here
    free_[mapped].push_back(std::move(bytes));
    free_bytes_ += mapped;
}

void Pool::release_expired(std::chrono::steady_clock::time_point now) {
    while (!quarantine_.empty() && quarantine_.front().until <= now) {
        keep(std::move(quarantine_.front().bytes));
        quarantine_.pop_front();
    }
}

Batch::Batch(Pool &pool, const std::vector<void *> &callers, const std::vector<size_t> &lens, bool staged)
    : pool_(pool), pointers_(callers), late_(lens.size(), false) {
    if (!staged) return;
    bytes_.reserve(lens.size());
    for (size_t i = 0; i < lens.size(); ++i) pointers_[i] = bytes_.emplace_back(pool.take(lens[i])).get();
}

Batch::~Batch() {
    for (size_t i = 0; i < bytes_.size(); ++i) pool_.give_back(std::move(bytes_[i]), late_[i]);
}

}  // namespace kvt_staging
