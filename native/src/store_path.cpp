// kvt_store: the store path. A guarded batch's slices are copied into staging under the guard,
// and the put reads only staging (staging.h).
#include "kvtier_mooncake.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "client.h"

using namespace kvt_boundary;
using namespace kvt_client_parts;

namespace {

// Copies each buffer into its staging while holding the guard, one key at a time so that a caller
// closing it waits for one copy at most. False once the caller has closed it: nothing is stored.
bool copy_in(int32_t *guard, const std::vector<void *> &from, const std::vector<size_t> &lens,
             kvt_staging::Batch &staging) {
    for (size_t i = 0; i < from.size(); ++i)
        if (!kvt_staging::while_held(guard, [&] { std::memcpy(staging.buffers()[i], from[i], lens[i]); }))
            return false;
    return true;
}

}  // namespace

KVT_EXPORT int32_t kvt_store(kvt_client *client, const char *const *keys,
                             const int32_t *key_lens, const int64_t *addrs,
                             const int64_t *sizes, int32_t n, int32_t replica_num,
                             int32_t nof_replica_num, int32_t *guard, int64_t *results) {
    return guarded("kvt_store", [&]() -> int32_t {
        require_client(client);
        if (!check_batch(keys, key_lens, n, results)) return 0;
        auto ks = to_keys(keys, key_lens, n);
        std::vector<void *> bufs;
        std::vector<size_t> lens;
        to_buffers(addrs, sizes, n, bufs, lens);

        mooncake::ReplicateConfig config;  // Mooncake's defaults unless overridden
        if (replica_num >= 0) config.replica_num = static_cast<size_t>(replica_num);
        if (nof_replica_num >= 0) config.nof_replica_num = static_cast<size_t>(nof_replica_num);
        // The master places replicas; it tries preferred segments first. A segment is named by
        // its client's local_hostname, which the transfer endpoint shows with or without its port.
        for (const auto &node : client->nodes.preferred_while_some_avoided()) {
            config.preferred_segments.push_back(node);
            if (const auto colon = node.rfind(':'); colon != std::string::npos)
                config.preferred_segments.push_back(node.substr(0, colon));
        }

        kvt_staging::Batch staging(client->staging, bufs, lens, guard != nullptr);
        if (guard != nullptr && !copy_in(guard, bufs, lens, staging)) {
            std::fill_n(results, n, KVT_NOT_DELIVERED);
            return 0;
        }
        // Each stripe stores a run of the batch, all at once.
        const size_t parts = std::min(client->stripes.size(), static_cast<size_t>(n));
        try {
            kvt_workers::in_parallel(client->store_workers, parts, [&](size_t p) {
                const auto run = run_of(p, n, parts);
                kvt_aids::BatchThread batch(client->nodes);
                auto got = client->stripes[p]->batch_put_from(items(ks, run), items(staging.buffers(), run),
                                                               items(lens, run), config);
                check_count("batch_put_from", got, static_cast<int32_t>(run.second - run.first));
                copy_results(got, results + run.first);
            });
        } catch (...) {
            staging.all_late();
            throw;
        }
        // A put that failed may have left a transfer behind that still sends from its staging.
        for (int32_t i = 0; i < n; ++i)
            if (results[i] != 0) staging.late(i);
        return 0;
    });
}
