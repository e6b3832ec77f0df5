#include "staging.h"

#include <thread>

#include "kvtier_mooncake.h"

namespace kvt_staging {

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

Pool::Bytes Pool::take(size_t size) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        release_expired(std::chrono::steady_clock::now());
        auto it = free_.find(size);
        if (it != free_.end() && !it->second.empty()) {
            Bytes bytes = std::move(it->second.back());
            it->second.pop_back();
            free_bytes_ -= size;
            return bytes;
        }
    }
    return Bytes(new char[size == 0 ? 1 : size]);
}

void Pool::give_back(size_t size, Bytes bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_bytes_ + size > kKeptBytes) return;  // freed here
    free_[size].push_back(std::move(bytes));
    free_bytes_ += size;
}

void Pool::quarantine(size_t size, Bytes bytes) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(mu_);
    release_expired(now);
    quarantine_.push_back({now + kLateTransfers, size, std::move(bytes)});
    quarantined_bytes_ += size;
}

size_t Pool::quarantined() {
    std::lock_guard<std::mutex> lock(mu_);
    release_expired(std::chrono::steady_clock::now());
    return quarantined_bytes_;
}

void Pool::release_expired(std::chrono::steady_clock::time_point now) {
    while (!quarantine_.empty() && quarantine_.front().until <= now) {
        Held held = std::move(quarantine_.front());
        quarantine_.pop_front();
        quarantined_bytes_ -= held.size;
        if (free_bytes_ + held.size <= kKeptBytes) {
            free_[held.size].push_back(std::move(held.bytes));
            free_bytes_ += held.size;
        }
    }
}

Batch::Batch(Pool &pool, const std::vector<size_t> &lens) : pool_(pool), lens_(lens), late_(lens.size(), false) {
    bytes_.reserve(lens.size());
    pointers_.reserve(lens.size());
    for (size_t len : lens) {
        bytes_.push_back(pool.take(len));
        pointers_.push_back(bytes_.back().get());
    }
}

Batch::~Batch() {
    for (size_t i = 0; i < bytes_.size(); ++i) {
        if (late_[i])
            pool_.quarantine(lens_[i], std::move(bytes_[i]));
        else
            pool_.give_back(lens_[i], std::move(bytes_[i]));
    }
}

}  // namespace kvt_staging
