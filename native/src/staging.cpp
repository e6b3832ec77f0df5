#include "staging.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <thread>
#include <utility>

#include "kvtier_mooncake.h"

namespace kvt_staging {

Bytes::Bytes(size_t size) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    mapped_ = (std::max<size_t>(size, 1) + page - 1) / page * page;
    void *p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    bytes_ = static_cast<char *>(p);
}

Bytes::~Bytes() {
    if (bytes_ != nullptr) munmap(bytes_, mapped_);
}

Bytes::Bytes(Bytes &&other) noexcept
    : bytes_(std::exchange(other.bytes_, nullptr)), mapped_(std::exchange(other.mapped_, 0)) {}

Bytes &Bytes::operator=(Bytes &&other) noexcept {
    if (this != &other) {
        if (bytes_ != nullptr) munmap(bytes_, mapped_);
        bytes_ = std::exchange(other.bytes_, nullptr);
        mapped_ = std::exchange(other.mapped_, 0);
    }
    return *this;
}

void Bytes::release_pages() { madvise(bytes_, mapped_, MADV_DONTNEED); }

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
    return Bytes(size);
}

void Pool::give_back(size_t size, Bytes bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_bytes_ + size > kKeptBytes) return;  // freed here
    free_[size].push_back(std::move(bytes));
    free_bytes_ += size;
}

void Pool::quarantine(size_t size, Bytes bytes) {
    bytes.release_pages();
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(mu_);
    release_expired(now);
    quarantine_.push_back({now + kLateTransfers, size, std::move(bytes)});
}

void Pool::release_expired(std::chrono::steady_clock::time_point now) {
    while (!quarantine_.empty() && quarantine_.front().until <= now) {
        Held held = std::move(quarantine_.front());
        quarantine_.pop_front();
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
