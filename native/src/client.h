// One kvt_client: the native Mooncake clients of one instance, its staging memory and its node
// table, shared by the setup, store and read paths.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "boundary.h"
#include "mooncake_api.h"
#include "nodes.h"
#include "staging.h"
#include "workers.h"

struct kvt_client {
    // Declared first, so freed last: the stripes' transfers may still use it until they are torn down.
    kvt_staging::Pool staging;
    // Native Mooncake clients of one master, each with a transfer engine of its own (its own I/O
    // thread and connections): a batch's transfers are split across them, so more are in flight
    // than one client keeps. The first also answers health checks and probes, and reads objects
    // kept outside memory.
    std::vector<std::shared_ptr<mooncake::RealClient>> stripes;
    std::atomic<size_t> turn{0};  // lookups and deletes take the stripes in turn
    // globalConfig().max_mr_size read once right after setup (as LMCache does): the L1
    // block size must not change under registrations made with it.
    uint64_t max_mr_size = 0;
    // Whether the first stripe mounted a segment of its own (global_segment_size > 0), in this
    // process's memory, which the connector copies into and out of itself.
    bool own_segment = false;
    Nodes nodes;
    std::atomic<int32_t> unchecked_objects{KVT_UNCHECKED_LOAD};  // kvt_unchecked_objects
    // Run the parts of a batch beside the caller's thread. Stores have threads of their own: a
    // thread starts with its creator's CPU priority, and kvtier's store threads run at a lower one.
    kvt_workers::Workers workers, store_workers;
};

namespace kvt_client_parts {

inline mooncake::RealClient &require_client(kvt_client *c) {
    if (c == nullptr || c->stripes.empty()) kvt_boundary::bad_argument("client is null");
    return *c->stripes[0];
}

inline mooncake::RealClient &next_stripe(kvt_client &c) {
    return *c.stripes[c.turn.fetch_add(1, std::memory_order_relaxed) % c.stripes.size()];
}

// Part p of n items cut into `parts` runs of nearly equal length: [first, last).
inline std::pair<size_t, size_t> run_of(size_t p, size_t n, size_t parts) {
    return {p * n / parts, (p + 1) * n / parts};
}

template <class T>
std::vector<T> items(const std::vector<T> &all, std::pair<size_t, size_t> run) {
    return std::vector<T>(all.begin() + run.first, all.begin() + run.second);
}

// all[positions[0]], all[positions[1]], ...
template <class T>
std::vector<T> at(const std::vector<T> &all, const std::vector<size_t> &positions) {
    std::vector<T> out;
    out.reserve(positions.size());
    for (size_t i : positions) out.push_back(all[i]);
    return out;
}

}  // namespace kvt_client_parts
