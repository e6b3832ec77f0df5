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

// Whether a put goes in Mooncake's three steps (put_in_three_steps): only where its start cannot
// leave a key with fewer replicas than asked, which it drops without revoking them: one replica,
// in memory. And only guarded: unguarded (RDMA), Mooncake reads the caller's slices itself.
bool in_three_steps(const mooncake::ReplicateConfig &config, const int32_t *guard) {
    return guard != nullptr && config.replica_num == 1 && config.nof_replica_num == 0;
}

// Keys [run.first, run.second) of a guarded batch, put in Mooncake's three steps: the start
// places the replicas and moves no byte; the connector copies each key's slice under the guard,
// with the object's checksum in the same pass, straight into its replica when it is in the client's
// own segment (CanUseLocalMemcpy), else into staging, which Mooncake then writes to the replica; the
// end makes the written objects, with their checksums, and a revoke drops the others. So the guard
// is held for one copy at a time, never through a master RPC, and a local replica's bytes are
// copied once: Mooncake's own put copies them into staging, checksums them and copies them again.
void put_in_three_steps(mooncake::RealClient &stripe, const std::vector<std::string> &ks,
                        const std::vector<void *> &bufs, const std::vector<size_t> &lens,
                        std::pair<size_t, size_t> run, const mooncake::ReplicateConfig &config,
                        int32_t *guard, kvt_staging::Batch &staging, int64_t *results) {
    mooncake::Client &client = *stripe.client_;
    const auto keys = items(ks, run);
    const std::vector<uint64_t> sizes(lens.begin() + run.first, lens.begin() + run.second);
    const auto started = client.StartBatchPutForSizes(keys, sizes, config);
    check_count("StartBatchPutForSizes", started, static_cast<int32_t>(keys.size()));

    std::vector<mooncake::ObjectMeta> written;
    std::vector<size_t> written_at;       // batch positions of `written`
    std::vector<std::string> unwritten;   // started, then left: revoked
    std::vector<std::vector<mooncake::Replica::Descriptor>> remote;
    std::vector<std::vector<mooncake::Slice>> remote_slices;
    std::vector<size_t> remote_at;
    std::vector<std::optional<uint64_t>> remote_checksums;
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
            unwritten.push_back(keys[j]);
            continue;
        }
        const auto &place = replicas.front().get_memory_descriptor().buffer_descriptor;
        const bool local = client.CanUseLocalMemcpy(place.transport_endpoint_);
        void *to = local ? reinterpret_cast<void *>(place.buffer_address_) : staging.buffers()[i];
        std::optional<uint64_t> checksum;
        open = open && kvt_staging::while_held(guard, [&] { checksum = kvt_shim::copy_for_put(to, bufs[i], lens[i]); });
        if (!open) {
            results[i] = KVT_NOT_DELIVERED;  // the caller closed the guard first
            unwritten.push_back(keys[j]);
        } else if (local) {
            written.push_back({keys[j], checksum});
            written_at.push_back(i);
        } else {
            remote.push_back(replicas);
            remote_slices.push_back({{to, lens[i]}});
            remote_at.push_back(i);
            remote_checksums.push_back(checksum);
        }
    }
    if (!remote.empty()) {
        const auto sent = client.BatchTransferWriteRanges(
            remote, remote_slices, std::vector<std::vector<uint64_t>>(remote.size(), std::vector<uint64_t>{0}));
        check_count("BatchTransferWriteRanges", sent, static_cast<int32_t>(remote.size()));
        for (size_t k = 0; k < remote.size(); ++k) {
            const size_t i = remote_at[k];
            if (sent[k]) {
                written.push_back({ks[i], remote_checksums[k]});
                written_at.push_back(i);
            } else {
                results[i] = static_cast<int64_t>(sent[k].error());
                unwritten.push_back(ks[i]);
            }
        }
    }
    if (!written.empty()) {
        const auto ended = client.BatchPutEnd(written);
        check_count("BatchPutEnd", ended, static_cast<int32_t>(written.size()));
        // As Mooncake's put: an end that failed is an error, and nothing revokes it.
        for (size_t k = 0; k < written.size(); ++k)
            results[written_at[k]] = ended[k] ? 0 : static_cast<int64_t>(ended[k].error());
    }
    // The results say what became of these keys already; a failed revoke leaves the master to
    // discard the put.
    if (!unwritten.empty()) (void)client.BatchPutRevoke(unwritten);
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
        const bool three_steps = in_three_steps(config, guard);
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
                    put_in_three_steps(*client->stripes[p], ks, bufs, lens, run, config, guard, staging, results);
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
