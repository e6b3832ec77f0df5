// kvt_store: the store path. A guarded batch's slices are copied under the guard, into staging or
// straight into a replica in the client's own segment, and the put reads only those (staging.h).
#include "kvtier_mooncake.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
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

// Whether a put goes in Mooncake's three steps (put_in_three_steps): for an instance with a
// segment of its own, and only where the start cannot leave a key with fewer replicas than asked,
// which it drops without revoking them: one replica, in memory. And only guarded: unguarded
// (RDMA), Mooncake reads the caller's slices itself.
bool in_three_steps(const kvt_client &c, const mooncake::ReplicateConfig &config, const int32_t *guard) {
    return c.own_segment && guard != nullptr && config.replica_num == 1 && config.nof_replica_num == 0;
}

// Keys [run.first, run.second) of a guarded batch, put in Mooncake's three steps: the start places
// the replicas and moves no byte; a key whose replica is in the instance's own segment
// (CanUseLocalMemcpy, as the read path tests it) is copied straight into it under the guard, with
// the object's checksum in the same pass, and the end records it with that checksum. So its bytes
// are copied once, where Mooncake's put copies them into staging, checksums them and copies them
// again, and the guard is held for one copy at a time, never through a master RPC. A key placed on
// another node is copied into staging under the guard, its put revoked, and put again through
// Mooncake's put from staging: Mooncake's range writes (BatchTransferWriteRanges) to a partitioned
// node stalled the client's reads from the healthy nodes too (RealClusterFaultsTest, b).
void put_in_three_steps(kvt_client &c, mooncake::RealClient &stripe, const std::vector<std::string> &ks,
                        const std::vector<void *> &bufs, const std::vector<size_t> &lens,
                        std::pair<size_t, size_t> run, const mooncake::ReplicateConfig &config,
                        int32_t *guard, kvt_staging::Batch &staging, int64_t *results) {
    mooncake::Client &client = *stripe.client_;
    const auto keys = items(ks, run);
    const std::vector<uint64_t> sizes(lens.begin() + run.first, lens.begin() + run.second);
    const auto started = client.StartBatchPutForSizes(keys, sizes, config);
    check_count("StartBatchPutForSizes", started, static_cast<int32_t>(keys.size()));

    std::vector<mooncake::ObjectMeta> written;
    std::vector<size_t> written_at;  // batch positions of `written`
    std::vector<size_t> revoked_at;  // batch positions of keys started, then left
    std::vector<bool> elsewhere;     // per revoked_at: placed on another node, copied into staging
    bool open = true;
    for (size_t j = 0; j < keys.size(); ++j) {
        const size_t i = run.first + j;
        if (!started[j]) {
            const auto code = started[j].error();
            // As Mooncake's put answers it: a key that exists is stored.
            results[i] = code == mooncake::ErrorCode::OBJECT_ALREADY_EXISTS ? 0 : static_cast<int64_t>(code);
            continue;
        }
        const auto &replicas = *started[j];
        if (replicas.size() != 1 || !replicas.front().is_memory_replica()) {
            results[i] = static_cast<int64_t>(mooncake::ErrorCode::INTERNAL_ERROR);
            revoked_at.push_back(i);
            elsewhere.push_back(false);
            continue;
        }
        const auto &place = replicas.front().get_memory_descriptor().buffer_descriptor;
        const bool local = c.stripes[0]->client_->CanUseLocalMemcpy(place.transport_endpoint_);
        void *to = local ? reinterpret_cast<void *>(place.buffer_address_) : staging.buffers()[i];
        std::optional<uint64_t> checksum;
        open = open && kvt_staging::while_held(guard, [&] {
                   if (local)
                       checksum = kvt_shim::copy_for_put(to, bufs[i], lens[i]);
                   else
                       std::memcpy(to, bufs[i], lens[i]);
               });
        if (open && local) {
            written.push_back({keys[j], checksum});
            written_at.push_back(i);
            continue;
        }
        revoked_at.push_back(i);
        elsewhere.push_back(open);
        if (!open) results[i] = KVT_NOT_DELIVERED;  // the caller closed the guard first
    }
    if (!written.empty()) {
        const auto ended = client.BatchPutEnd(written);
        check_count("BatchPutEnd", ended, static_cast<int32_t>(written.size()));
        // As Mooncake's put: an end that failed is an error, and nothing revokes it.
        for (size_t k = 0; k < written.size(); ++k)
            results[written_at[k]] = ended[k] ? 0 : static_cast<int64_t>(ended[k].error());
    }
    if (revoked_at.empty()) return;
    // A put the revoke failed to drop is left to the master to discard; a key placed elsewhere is
    // then not put again, since a put of it would find the key taken and report it stored.
    const auto revoked = client.BatchPutRevoke(at(ks, revoked_at));
    check_count("BatchPutRevoke", revoked, static_cast<int32_t>(revoked_at.size()));
    std::vector<size_t> again;
    for (size_t k = 0; k < revoked_at.size(); ++k) {
        if (!elsewhere[k]) continue;
        if (revoked[k])
            again.push_back(revoked_at[k]);
        else
            results[revoked_at[k]] = static_cast<int64_t>(revoked[k].error());
    }
    if (!again.empty()) {
        const auto got = stripe.batch_put_from(at(ks, again), at(staging.buffers(), again), at(lens, again), config);
        check_count("batch_put_from", got, static_cast<int32_t>(again.size()));
        for (size_t k = 0; k < again.size(); ++k) results[again[k]] = got[k];
    }
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
        const bool three_steps = in_three_steps(*client, config, guard);
        if (guard != nullptr && !three_steps && !copy_in(guard, bufs, lens, staging)) {
            std::fill_n(results, n, KVT_NOT_DELIVERED);
            return 0;
        }
        // Each stripe stores a run of the batch, all at once.
        const size_t parts = std::min(client->stripes.size(), static_cast<size_t>(n));
        try {
            kvt_workers::in_parallel(client->store_workers, parts, [&](size_t p) {
                const auto run = run_of(p, n, parts);
                kvt_aids::BatchThread batch(client->nodes);
                if (three_steps) {
                    put_in_three_steps(*client, *client->stripes[p], ks, bufs, lens, run, config, guard, staging, results);
                    return;
                }
                auto got = client->stripes[p]->batch_put_from(items(ks, run), items(staging.buffers(), run),
                                                               items(lens, run), config);
                check_count("batch_put_from", got, static_cast<int32_t>(run.second - run.first));
                copy_results(got, results + run.first);
            });
        } catch (...) {
            staging.all_late();
            throw;
        }
        // A put that failed may have left a transfer behind that still sends from its staging (or
        // the key's staging went unused).
        for (int32_t i = 0; i < n; ++i)
            if (results[i] != 0) staging.late(i);
        return 0;
    });
}
