// kvt_load and the nodes' C ABI: the read path. Each key is read from a replica whose node the
// client does not avoid, one transfer per node at once, and each key's result names the node it
// concerns. A guarded batch reads into staging and copies out under the guard (staging.h), except
// from a replica in this process's own segment, which lands in place under the guard.
#include "kvtier_mooncake.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "client.h"

using namespace kvt_boundary;
using namespace kvt_client_parts;

namespace {

// The first replica of `key`, from `from` on, whose node the client does not avoid; npos when
// none is. *skipped becomes the id of the first avoided node passed over, unless it has one: the
// caller's probe of that node may read the key, which the master still places there.
size_t next_replica(Nodes &nodes, const kvt_shim::Locations::Key &key, size_t from, int32_t *skipped) {
    for (size_t r = from; r < key.nodes.size(); ++r) {
        if (!nodes.avoided(key.nodes[r])) return r;
        if (*skipped < 0) *skipped = nodes.id(key.nodes[r]);
    }
    return std::string::npos;
}

bool corrupted(int64_t code) {
    return code == static_cast<int64_t>(mooncake::ErrorCode::CHECKSUM_MISMATCH);
}

// Where a load's transfers write. Guarded, a replica on another node lands in staging, copied
// out under the guard once the batch's reads are done. A replica in this process's own segment is
// read while the guard is held, straight into the caller's buffer: the connector copies it itself
// (kvt_shim::read_local; CanUseLocalMemcpy is Mooncake's test for such a replica), so no byte of it
// lands once the call returned, and the guard's holder finishes within one copy of the group's
// keys, however the network fares.
struct Landing {
    kvt_staging::Batch &staging;
    int32_t *guard;                      // null: unguarded, staging holds the caller's buffers
    const std::vector<void *> &callers;  // the caller's buffer of each key
    std::vector<bool> in_place;          // key i was last read whole into its caller's buffer
};

// A transfer of key i into staging failed, and may still write into it; a mismatched checksum is
// a transfer that completed.
void failed(Landing &landing, size_t i, int64_t code) {
    if (!corrupted(code)) landing.staging.late(i);
}

// Reads the located keys in `pending` (positions in the batch), each from its replica in
// `choice`: one transfer per node and stripe, all at once. Writes results[i] and nodes[i] (the
// node read) for every pending key.
void read_from_nodes(kvt_client &c, const std::vector<std::string> &ks, const kvt_shim::Locations &where,
                     const std::vector<size_t> &pending, const std::vector<size_t> &choice,
                     Landing &landing, int64_t *results, int32_t *nodes) {
    std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> by_node;
    for (size_t j = 0; j < pending.size(); ++j) {
        auto &[which, chosen] = by_node[where.keys[pending[j]].nodes[choice[j]]];
        which.push_back(pending[j]);
        chosen.push_back(choice[j]);
    }
    // A silent node then holds up only its own keys' transfers, and the time they take is theirs.
    struct Group {
        int id;  // the node's
        mooncake::RealClient *stripe;
        bool local, in_place;
        std::vector<size_t> which, choice;
        std::vector<int64_t> got;
    };
    std::vector<Group> groups;
    for (const auto &[node, keys] : by_node) {
        // A replica in the first stripe's own segment is copied under the guard, which one thread holds
        // at a time: more threads would not speed it up.
        const bool local = c.stripes[0]->client_->CanUseLocalMemcpy(node);
        const size_t parts = local ? 1 : std::min(c.stripes.size(), keys.first.size());
        const int id = c.nodes.id(node);
        for (size_t p = 0; p < parts; ++p) {
            const auto run = run_of(p, keys.first.size(), parts);
            groups.push_back({id, c.stripes[p].get(), local, local && landing.guard != nullptr,
                              items(keys.first, run), items(keys.second, run), {}});
        }
    }
    kvt_workers::in_parallel(c.workers, groups.size(), [&](size_t g) {
        auto &group = groups[g];
        Nodes::Transfer transfer(c.nodes, group.id);  // so that a stuck transfer shows against its node
        kvt_aids::BatchThread batch(c.nodes, c.nodes.heard(group.id));
        auto read = [&](const std::vector<void *> &buffers) {
            const auto read_replicas = group.local ? kvt_shim::read_local : kvt_shim::read_from;
            group.got = read_replicas(*group.stripe, ks, where, group.which, group.choice, buffers);
        };
        if (!group.in_place)
            read(landing.staging.buffers());
        else if (!kvt_staging::while_held(landing.guard, [&] { read(landing.callers); }))
            group.got.assign(group.which.size(), KVT_NOT_DELIVERED);  // the caller closed the guard first
        check_count("BatchGet", group.got, static_cast<int32_t>(group.which.size()));
        // A read that reached the node connected to its data address, which the connect guard
        // refuses while the node is avoided.
        if (std::ranges::find(group.got, 0) != group.got.end() && !batch.connected.empty())
            c.nodes.learn_address(group.id, batch.connected);
    });

    for (const auto &group : groups) {
        for (size_t j = 0; j < group.which.size(); ++j) {
            const size_t i = group.which[j];
            nodes[i] = group.id;
            landing.in_place[i] = group.in_place && group.got[j] == 0;
            if (group.got[j] == 0) {
                results[i] = static_cast<int64_t>(where.keys[i].size);
                continue;
            }
            // No second replica into the same buffer: a transfer Mooncake reports failed may
            // still deliver late bytes into it (seen on a flapping link as foreign objects).
            // The key stays a transient error; the caller may avoid the node from now on.
            results[i] = group.got[j];
            if (!group.in_place) failed(landing, i, group.got[j]);
        }
    }
}

// Reads as read_from_nodes does, then again each key whose replica's bytes differ from its
// object's checksum: that replica was written after its put completed (by a transfer Mooncake had
// reported failed, into memory handed on since), and its next replica not avoided may be whole.
// When the others are all on avoided nodes, the key is ON_SUSPECT_NODES: one of them may be whole.
void read_replicas(kvt_client &c, const std::vector<std::string> &ks, const kvt_shim::Locations &where,
                   std::vector<size_t> pending, std::vector<size_t> choice, Landing &landing,
                   int64_t *results, int32_t *nodes, int32_t *avoided) {
    while (!pending.empty()) {
        read_from_nodes(c, ks, where, pending, choice, landing, results, nodes);
        std::vector<size_t> again, next;
        for (size_t j = 0; j < pending.size(); ++j) {
            const size_t i = pending[j];
            if (!corrupted(results[i])) continue;
            const size_t r = next_replica(c.nodes, where.keys[i], choice[j] + 1, &avoided[i]);
            if (r != std::string::npos) {
                again.push_back(i);
                next.push_back(r);
            } else if (choice[j] + 1 < where.keys[i].nodes.size()) {
                results[i] = KVT_ON_SUSPECT_NODES;
            }
        }
        pending = std::move(again);
        choice = std::move(next);
    }
}

// An object none of whose replicas was read whole is removed: a store of a key that exists keeps
// the old object, so it could never be replaced otherwise. Its key stays an error. Only while the
// key names that object still (its checksum): a call that outlived its deadline may return after
// the host stored the key again.
void remove_corrupted(kvt_client &c, const std::vector<std::string> &ks, const kvt_shim::Locations &where,
                      const int64_t *results) {
    std::vector<size_t> found;
    for (size_t i = 0; i < ks.size(); ++i)
        if (corrupted(results[i])) found.push_back(i);
    if (found.empty()) return;
    const auto now = c.stripes[0]->client_->BatchQuery(at(ks, found));
    std::vector<std::string> still;
    for (size_t j = 0; j < now.size() && j < found.size(); ++j)
        if (now[j] && now[j]->object_checksum == where.raw[found[j]]->object_checksum)
            still.push_back(ks[found[j]]);
    if (!still.empty()) next_stripe(c).batchRemove(still, /*force=*/true);
}

// Reads keys whose replicas are outside memory (disk, NoF) with batch_get_into. Writes results[i]
// for each of them: the bytes read, or an error code.
void read_elsewhere(mooncake::RealClient &c, const std::vector<std::string> &ks,
                    const std::vector<size_t> &elsewhere, const std::vector<size_t> &lens,
                    Landing &landing, int64_t *results) {
    if (elsewhere.empty()) return;
    auto got = c.batch_get_into(at(ks, elsewhere), at(landing.staging.buffers(), elsewhere), at(lens, elsewhere));
    check_count("batch_get_into", got, static_cast<int32_t>(elsewhere.size()));
    for (size_t j = 0; j < elsewhere.size(); ++j) {
        results[elsewhere[j]] = got[j];
        if (got[j] < 0) failed(landing, elsewhere[j], got[j]);
    }
}

// Copies each key read whole into staging (results[i] >= 0 bytes) into the caller's buffer while
// holding the guard, one key at a time. Once the caller has closed the guard, the keys not copied
// yet get KVT_NOT_DELIVERED.
void copy_out(const Landing &landing, int64_t *results) {
    bool open = true;
    for (size_t i = 0; i < landing.callers.size(); ++i) {
        if (results[i] < 0 || landing.in_place[i]) continue;
        open = open && kvt_staging::while_held(landing.guard, [&] {
            std::memcpy(landing.callers[i], landing.staging.buffers()[i], static_cast<size_t>(results[i]));
        });
        if (!open) results[i] = KVT_NOT_DELIVERED;
    }
}

}  // namespace

KVT_EXPORT int32_t kvt_load(kvt_client *client, const char *const *keys,
                            const int32_t *key_lens, const int64_t *addrs, const int64_t *sizes,
                            int32_t n, int32_t *guard, int64_t *results, int32_t *nodes,
                            int32_t *avoided) {
    return guarded("kvt_load", [&]() -> int32_t {
        auto &c = require_client(client);
        if (!check_batch(keys, key_lens, n, results)) return 0;
        if (nodes == nullptr || avoided == nullptr) bad_argument("nodes or avoided is null");
        std::fill_n(nodes, n, -1);
        std::fill_n(avoided, n, -1);
        auto ks = to_keys(keys, key_lens, n);
        std::vector<void *> bufs;
        std::vector<size_t> lens;
        to_buffers(addrs, sizes, n, bufs, lens);
        kvt_staging::Batch staging(client->staging, bufs, lens, guard != nullptr);
        Landing landing{staging, guard, bufs, std::vector<bool>(bufs.size(), false)};

        const int32_t unchecked = client->unchecked_objects.load(std::memory_order_relaxed);
        const auto where = kvt_shim::locate(c, ks, unchecked != KVT_UNCHECKED_LOAD);
        check_count("BatchQuery", where.keys, n);
        // At once: by the end of a read stuck for seconds, a store may have replaced them.
        if (unchecked == KVT_UNCHECKED_REMOVE) kvt_shim::remove_unchecked(c, where);
        std::vector<size_t> pending, choice, elsewhere;
        for (int32_t i = 0; i < n; ++i) {
            const auto &key = where.keys[i];
            if (key.error < 0) {
                results[i] = key.error;
            } else if (key.elsewhere) {
                elsewhere.push_back(i);
            } else if (lens[i] < key.size) {
                results[i] = static_cast<int64_t>(mooncake::ErrorCode::INVALID_PARAMS);
            } else if (const size_t r = next_replica(client->nodes, key, 0, &avoided[i]); r != std::string::npos) {
                pending.push_back(i);
                choice.push_back(r);
            } else {
                results[i] = KVT_ON_SUSPECT_NODES;
            }
        }
        try {
            read_replicas(*client, ks, where, pending, choice, landing, results, nodes, avoided);
            read_elsewhere(c, ks, elsewhere, lens, landing, results);
        } catch (...) {
            staging.all_late();
            throw;
        }
        if (guard != nullptr) copy_out(landing, results);
        remove_corrupted(*client, ks, where, results);
        return 0;
    });
}

KVT_EXPORT int32_t kvt_node_reads(kvt_client *client, int32_t *running, int64_t *oldest_ms,
                                  int64_t *quiet_ms, int32_t cap) {
    return guarded("kvt_node_reads", [&]() -> int32_t {
        require_client(client);
        if (cap < 0 || (cap > 0 && (running == nullptr || oldest_ms == nullptr || quiet_ms == nullptr)))
            bad_argument("node_reads: bad arrays");
        const auto reads = client->nodes.reads();
        for (size_t id = 0; id < reads.size() && id < static_cast<size_t>(cap); ++id) {
            running[id] = reads[id].running;
            oldest_ms[id] = reads[id].oldest_ms;
            quiet_ms[id] = reads[id].quiet_ms;
        }
        return static_cast<int32_t>(reads.size());
    });
}

KVT_EXPORT int32_t kvt_node_name(kvt_client *client, int32_t id, char *buf, int32_t cap) {
    return guarded("kvt_node_name", [&]() -> int32_t {
        require_client(client);
        if (cap < 0 || (cap > 0 && buf == nullptr)) bad_argument("node_name: bad buffer");
        const std::string name = client->nodes.name(id);
        if (name.empty()) bad_argument("node_name: no node " + std::to_string(id));
        if (cap > 0) {
            const size_t copied = std::min(name.size(), static_cast<size_t>(cap) - 1);
            std::copy_n(name.data(), copied, buf);
            buf[copied] = '\0';
        }
        return static_cast<int32_t>(name.size());
    });
}

KVT_EXPORT int32_t kvt_avoid_node(kvt_client *client, int32_t id, int32_t avoid) {
    return guarded("kvt_avoid_node", [&]() -> int32_t {
        require_client(client);
        if (!client->nodes.avoid(id, avoid != 0)) bad_argument("avoid_node: no node " + std::to_string(id));
        return 0;
    });
}

KVT_EXPORT int32_t kvt_probe_node(kvt_client *client, int32_t id, const char *key, int32_t key_len) {
    return guarded("kvt_probe_node", [&]() -> int32_t {
        auto &c = require_client(client);
        if (key == nullptr || key_len < 0) bad_argument("probe_node: key is null or its length negative");
        const std::string node = client->nodes.name(id);
        if (node.empty()) bad_argument("probe_node: no node " + std::to_string(id));
        const std::vector<std::string> keys{std::string(key, static_cast<size_t>(key_len))};
        // An object without a checksum serves a probe too: only whether the node sends counts.
        const auto where = kvt_shim::locate(c, keys, false);
        check_count("BatchQuery", where.keys, 1);
        const auto &located = where.keys[0];
        if (located.error == static_cast<int64_t>(mooncake::ErrorCode::OBJECT_NOT_FOUND)) return KVT_PROBE_NOT_THERE;
        if (located.error < 0) return KVT_PROBE_UNANSWERED;  // the master may be away
        const auto r = std::find(located.nodes.begin(), located.nodes.end(), node);
        if (r == located.nodes.end()) return KVT_PROBE_NOT_THERE;
        kvt_staging::Batch landing(client->staging, {nullptr}, {located.size}, true);
        Nodes::Transfer transfer(client->nodes, id);  // no BatchThread: a probe must reach the node
        const auto got = kvt_shim::read_from(c, keys, where, {0}, {static_cast<size_t>(r - located.nodes.begin())},
                                             landing.buffers());
        if (got.size() != 1 || got[0] != 0) landing.all_late();  // as a load's: it may still be written into
        check_count("BatchGet", got, 1);
        return got[0] == 0 ? KVT_PROBE_ANSWERED : KVT_PROBE_UNANSWERED;
    });
}
