// Where the keys a lookup found live, kept for the load that follows it. The master answers a
// lookup's BatchQuery with each object's replicas and a read lease (default_kv_lease_ttl, 10 s by
// default) during which it neither evicts the object nor reuses its memory, so a load within the
// lease reads from the lookup's answer and asks the master nothing: one round trip per request
// instead of two. Mooncake's BatchGet still fails a key whose lease ended before its transfer did.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mooncake_api.h"

class Remembered {
  public:
    using Clock = std::chrono::steady_clock;

    // Keeps the location of every key found (error 0).
    void remember(const std::vector<std::string> &keys, const kvt_shim::Locations &where) {
        const auto now = Clock::now();
        std::lock_guard<std::mutex> lock(mu_);
        for (size_t i = 0; i < keys.size() && i < where.keys.size(); ++i) {
            if (where.keys[i].error != 0) continue;
            by_key_[keys[i]] = where.keys[i];
            order_.emplace_back(keys[i], where.keys[i].lease_end);
        }
        while (!order_.empty() && (order_.front().second <= now || by_key_.size() > kMost)) {
            const auto it = by_key_.find(order_.front().first);
            if (it != by_key_.end() && it->second.lease_end == order_.front().second) by_key_.erase(it);
            order_.pop_front();
        }
        // A key remembered again leaves its older entry in order_; bounded all the same.
        while (order_.size() > 2 * kMost) order_.pop_front();
    }

    // For each key with a location whose lease has kLeaseLeft still to run, moves it into
    // into[i] and sets taken[i]; a location serves one load.
    void take(const std::vector<std::string> &keys, std::vector<kvt_shim::Locations::Key> &into,
              std::vector<bool> &taken) {
        const auto usable = Clock::now() + kLeaseLeft;
        std::lock_guard<std::mutex> lock(mu_);
        for (size_t i = 0; i < keys.size(); ++i) {
            const auto it = by_key_.find(keys[i]);
            if (it == by_key_.end()) continue;
            if (it->second.lease_end > usable) {
                into[i] = std::move(it->second);
                taken[i] = true;
            }
            by_key_.erase(it);
        }
    }

    // Deleted keys: their memory is the master's to reuse at once, lease or not.
    void forget(const std::vector<std::string> &keys) {
        std::lock_guard<std::mutex> lock(mu_);
        for (const auto &key : keys) by_key_.erase(key);
    }

  private:
    // A load that outlives the lease fails the key (LEASE_EXPIRED): with this much left, only one
    // longer than the default batch_timeout_ms (2 s) can.
    static constexpr auto kLeaseLeft = std::chrono::seconds(2);
    // Bounds the memory of lookups never followed by a load (about 300 bytes each).
    static constexpr size_t kMost = 1 << 14;

    std::mutex mu_;
    std::unordered_map<std::string, kvt_shim::Locations::Key> by_key_;
    std::deque<std::pair<std::string, Clock::time_point>> order_;  // by lease end, for purging
};
