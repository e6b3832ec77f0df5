// kvtier's Mooncake connector: the C ABI of include/kvtier_mooncake.h over one
// mooncake::RealClient. The counterpart of LMCache's MooncakeConnector without its worker
// pools and completion queue: Java owns threading, so every call here is synchronous and
// maps one Java batch to one Mooncake batch call.
//
// Compiled twice from this same file: against real Mooncake (libkvtier_mooncake.so) and
// against the in-memory test double (libkvtier_mooncake_testdouble.so, -DKVTIER_TESTDOUBLE).
#include "kvtier_mooncake.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "mooncake_api.h"
#include "node_table.h"
#include "staging.h"

#define KVT_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

thread_local std::string g_last_error;

// A failure whose message is already the full text for kvt_last_error().
struct KvtError : std::runtime_error {
    int32_t code;
    KvtError(int32_t c, const std::string &msg) : std::runtime_error(msg), code(c) {}
};

constexpr int32_t kFailed = -1;
constexpr int32_t kBadArgument = -22;  // like EINVAL: the caller broke the contract

[[noreturn]] void bad_argument(const std::string &msg) {
    throw KvtError(kBadArgument, "kvtier_mooncake: " + msg);
}

// Runs `body` with the error slot cleared and turns every exception into a negative
// return code plus a message: nothing may unwind into the JVM.
template <class Body>
int32_t guarded(const char *fn, Body &&body) noexcept {
    try {
        g_last_error.clear();
        return body();
    } catch (const KvtError &e) {
        try { g_last_error = e.what(); } catch (...) {}
        return e.code;
    } catch (const std::exception &e) {
        try { g_last_error = std::string(fn) + ": unexpected exception: " + e.what(); } catch (...) {}
        return kFailed;
    } catch (...) {
        try { g_last_error = std::string(fn) + ": unknown exception"; } catch (...) {}
        return kFailed;
    }
}

// Validates the common batch arguments; returns false when n == 0 (nothing to do).
bool check_batch(const char *const *keys, const int32_t *key_lens, int32_t n,
                 const void *results) {
    if (n < 0) bad_argument("n must be >= 0, got " + std::to_string(n));
    if (n == 0) return false;
    if (keys == nullptr || key_lens == nullptr) bad_argument("keys or key_lens is null");
    if (results == nullptr) bad_argument("results is null");
    return true;
}

std::vector<std::string> to_keys(const char *const *keys, const int32_t *key_lens, int32_t n) {
    std::vector<std::string> out;
    out.reserve(n);
    for (int32_t i = 0; i < n; ++i) {
        if (key_lens[i] < 0) bad_argument("key_lens[" + std::to_string(i) + "] is negative");
        if (keys[i] == nullptr && key_lens[i] > 0)
            bad_argument("keys[" + std::to_string(i) + "] is null");
        out.emplace_back(keys[i] == nullptr ? "" : keys[i], static_cast<size_t>(key_lens[i]));
    }
    return out;
}

void to_buffers(const int64_t *addrs, const int64_t *sizes, int32_t n,
                std::vector<void *> &bufs, std::vector<size_t> &lens) {
    if (addrs == nullptr || sizes == nullptr) bad_argument("addrs or sizes is null");
    bufs.reserve(n);
    lens.reserve(n);
    for (int32_t i = 0; i < n; ++i) {
        if (sizes[i] < 0) bad_argument("sizes[" + std::to_string(i) + "] is negative");
        bufs.push_back(reinterpret_cast<void *>(static_cast<uintptr_t>(addrs[i])));
        lens.push_back(static_cast<size_t>(sizes[i]));
    }
}

// Mooncake must answer once per key; anything else means we cannot tell which key a
// result belongs to, so the whole batch fails.
template <class Vec>
void check_count(const char *op, const Vec &got, int32_t n) {
    if (got.size() != static_cast<size_t>(n))
        throw KvtError(kFailed, std::string("Mooncake ") + op + " returned " +
                                    std::to_string(got.size()) + " results for " +
                                    std::to_string(n) + " keys");
}

template <class Vec>
void copy_results(const Vec &got, int64_t *results) {
    for (size_t i = 0; i < got.size(); ++i) results[i] = static_cast<int64_t>(got[i]);
}

// Older Mooncake releases have no NoF replicas: asking for some there fails the batch
// rather than silently writing fewer copies. (A template, so the missing member is only
// looked up, never named, when it does not exist.)
template <class Config>
void set_nof_replica_num(Config &config, int32_t nof_replica_num) {
    if constexpr (requires { config.nof_replica_num; }) {
        config.nof_replica_num = static_cast<size_t>(nof_replica_num);
    } else if (nof_replica_num > 0) {
        throw KvtError(kFailed, "nof_replica_num is not supported by this Mooncake build");
    }
}

// RealClient::create() starts Mooncake's ResourceTracker, which, outside Python, blocks
// SIGINT/SIGTERM/SIGHUP/SIGUSR1 in the calling thread for its own signal thread. The
// caller here is a JVM thread, so give it its original mask back.
std::shared_ptr<mooncake::RealClient> create_keeping_sigmask() {
    sigset_t saved;
    const bool have_mask = pthread_sigmask(SIG_SETMASK, nullptr, &saved) == 0;
    auto client = mooncake::RealClient::create();
    if (have_mask) pthread_sigmask(SIG_SETMASK, &saved, nullptr);
    return client;
}

// Every client is created alone: Mooncake's process-wide state (its global config, its
// transfer engine's first setup) is not made for concurrent setups.
std::mutex g_create_mutex;


// Mooncake's codes for a transfer that did not complete: the node it went to may be silent.
bool transfer_failed(int64_t code) {
    return code == static_cast<int64_t>(mooncake::ErrorCode::TRANSFER_FAIL);
}

// How long no read may have met a node before a probe that finds none of its keys clears it:
// far longer than a busy workload goes between reads that meet one node's keys. A node the master
// dropped stays suspect that much longer, which costs nothing: nothing is placed there any more.
constexpr int64_t kMetRecentlyMs = 3000;

// Runs body(0) .. body(parts - 1), every part but the first on a thread of its own, and returns
// once all have returned (they share the caller's stack); then rethrows the first failure.
template <class Body>
void in_parallel(size_t parts, Body &&body) {
    std::vector<std::future<void>> others;
    for (size_t p = 1; p < parts; ++p)
        others.push_back(std::async(std::launch::async, [&body, p] { body(p); }));
    std::exception_ptr failure;
    try {
        body(0);
    } catch (...) {
        failure = std::current_exception();
    }
    for (auto &other : others) {
        try {
            other.get();
        } catch (...) {
            if (!failure) failure = std::current_exception();
        }
    }
    if (failure) std::rethrow_exception(failure);
}

// Part p of n items cut into `parts` runs of nearly equal length: [first, last).
std::pair<size_t, size_t> run_of(size_t p, size_t n, size_t parts) {
    return {p * n / parts, (p + 1) * n / parts};
}

template <class T>
std::vector<T> items(const std::vector<T> &all, std::pair<size_t, size_t> run) {
    return std::vector<T>(all.begin() + run.first, all.begin() + run.second);
}

// The setup of a further stripe: a client of the same master that contributes no storage and
// serves nothing of its own (the first client holds the segment, the IPC socket, the HTTP status
// port and SSD offload), at this host's address with a handshake port of its own.
mooncake::ConfigDict further_stripe(mooncake::ConfigDict config) {
    config["global_segment_size"] = "0";
    for (const char *key : {"ipc_socket_path", "enable_client_http_server", "client_http_port",
                            "enable_ssd_offload", "ssd_offload_path"})
        config.erase(key);
    auto host = config.find("local_hostname");
    if (host != config.end()) {
        const std::string &name = host->second;
        const size_t colon = name.rfind(':');
        const bool has_port = colon != std::string::npos && colon + 1 < name.size() &&
                              name.find_first_not_of("0123456789", colon + 1) == std::string::npos &&
                              (name.find(':') == colon || name[colon - 1] == ']');
        if (has_port) host->second = name.substr(0, colon);
    }
    return config;
}

}  // namespace

struct kvt_client {
    explicit kvt_client(int64_t suspect_after_ms) : nodes(suspect_after_ms, kvt_shim::node_table_hooks()) {}
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
    NodeTable nodes;
};

namespace {
mooncake::RealClient &require_client(kvt_client *c) {
    if (c == nullptr || c->stripes.empty()) bad_argument("client is null");
    return *c->stripes[0];
}

mooncake::RealClient &next_stripe(kvt_client &c) {
    return *c.stripes[c.turn.fetch_add(1, std::memory_order_relaxed) % c.stripes.size()];
}
}  // namespace

KVT_EXPORT int32_t kvt_abi_version(void) { return KVT_ABI_VERSION; }

KVT_EXPORT const char *kvt_last_error(void) { return g_last_error.c_str(); }

KVT_EXPORT int32_t kvt_log_to_file(const char *path) {
    return guarded("kvt_log_to_file", [&]() -> int32_t {
        if (path == nullptr || *path == '\0') bad_argument("log path is null or empty");
        static std::once_flag once;
        std::call_once(once, [&] { kvt_shim::log_to_file(path); });
        return 0;
    });
}

namespace {
// One RealClient set up with `config`; `which` names it in an error when there are several.
std::shared_ptr<mooncake::RealClient> set_up(const mooncake::ConfigDict &config,
                                             const std::string &which,
                                             std::chrono::milliseconds rpc_timeout) {
    kvt_shim::bound_master_rpcs(rpc_timeout);
    auto client = create_keeping_sigmask();
    if (!client) throw KvtError(kFailed, "Failed to create mooncake RealClient" + which);
    auto setup = client->setup_internal(config);
    if (!setup) {
        const auto code = setup.error();
        std::string msg = "Mooncake setup_internal failed" + which + ": " +
                          std::string(mooncake::toString(code)) + " (" +
                          std::to_string(static_cast<int>(code)) + ")";
        const std::string detail = kvt_shim::setup_failure_detail(*client);
        if (!detail.empty()) msg += ": " + detail;
        throw KvtError(kFailed, msg);  // the RealClient destructor cleans up
    }
    return client;
}
}  // namespace

KVT_EXPORT kvt_client *kvt_create(const char *const *keys, const char *const *values,
                                  int32_t n, int32_t rpc_timeout_ms,
                                  int32_t suspect_after_ms, int32_t native_clients) {
    kvt_client *out = nullptr;
    guarded("kvt_create", [&]() -> int32_t {
        if (n < 0) bad_argument("n must be >= 0, got " + std::to_string(n));
        if (rpc_timeout_ms <= 0)
            bad_argument("rpc_timeout_ms must be > 0, got " + std::to_string(rpc_timeout_ms));
        if (suspect_after_ms <= 0)
            bad_argument("suspect_after_ms must be > 0, got " + std::to_string(suspect_after_ms));
        if (native_clients < 1 || native_clients > KVT_MAX_NATIVE_CLIENTS)
            bad_argument("native_clients must be 1 to " + std::to_string(KVT_MAX_NATIVE_CLIENTS) +
                         ", got " + std::to_string(native_clients));
        if (n > 0 && (keys == nullptr || values == nullptr))
            bad_argument("config keys or values is null");
        mooncake::ConfigDict config;
        for (int32_t i = 0; i < n; ++i) {
            if (keys[i] == nullptr || values[i] == nullptr)
                bad_argument("config entry " + std::to_string(i) + " has a null key or value");
            if (!config.emplace(keys[i], values[i]).second)
                bad_argument(std::string("duplicate config key: ") + keys[i]);
        }

        const std::string missing = kvt_shim::missing_library(config);
        if (!missing.empty()) throw KvtError(kFailed, "kvtier_mooncake: " + missing);

        std::lock_guard<std::mutex> creating(g_create_mutex);
        if (!kvt_shim::check_objects_unless_told_otherwise())
            throw KvtError(kFailed, "kvtier_mooncake: Mooncake read its environment before kvtier's first client, "
                                    "so it checks no object; set MOONCAKE_STORE_CHECKSUM=true before starting the process");
        auto handle = std::make_unique<kvt_client>(suspect_after_ms);
        const std::chrono::milliseconds rpc_timeout(rpc_timeout_ms);
        handle->stripes.push_back(set_up(config, "", rpc_timeout));
        const auto further = further_stripe(config);
        for (int32_t s = 1; s < native_clients; ++s)
            handle->stripes.push_back(set_up(further, " for native client " + std::to_string(s + 1) +
                                                          " of " + std::to_string(native_clients),
                                             rpc_timeout));
        handle->max_mr_size = mooncake::globalConfig().max_mr_size;
        out = handle.release();
        return 0;
    });
    return out;
}

KVT_EXPORT void kvt_destroy(kvt_client *client) {
    if (client == nullptr) return;
    guarded("kvt_destroy", [&]() -> int32_t {
        std::unique_ptr<kvt_client> owned(client);
        for (const auto &stripe : owned->stripes) {
            const int rc = stripe->tearDownAll();
            if (rc != 0 && g_last_error.empty())  // still freed: there is nothing the caller could retry
                g_last_error = "Mooncake tearDownAll returned " + std::to_string(rc);
        }
        return 0;
    });
}

KVT_EXPORT int32_t kvt_max_mr_size(kvt_client *client, uint64_t *out) {
    return guarded("kvt_max_mr_size", [&]() -> int32_t {
        require_client(client);
        if (out == nullptr) bad_argument("max_mr_size: out is null");
        *out = client->max_mr_size;
        return 0;
    });
}

namespace {
void *as_pointer(uint64_t addr) { return reinterpret_cast<void *>(static_cast<uintptr_t>(addr)); }
}  // namespace

// With every stripe: each one's transfer engine reads and writes registered memory on its own.
KVT_EXPORT int32_t kvt_register_buffer(kvt_client *client, uint64_t addr, uint64_t len) {
    return guarded("kvt_register_buffer", [&]() -> int32_t {
        require_client(client);
        if (addr == 0) bad_argument("register_buffer: address is null");
        if (len == 0) bad_argument("register_buffer: length is 0");
        for (size_t s = 0; s < client->stripes.size(); ++s) {
            const int rc =
                client->stripes[s]->register_buffer(as_pointer(addr), static_cast<size_t>(len));
            if (rc != 0) {
                while (s-- > 0) client->stripes[s]->unregister_buffer(as_pointer(addr));
                throw KvtError(rc < 0 ? rc : kFailed,
                               "Mooncake register_buffer(" + std::to_string(addr) + ", " +
                                   std::to_string(len) + ") returned " + std::to_string(rc));
            }
        }
        return 0;
    });
}

KVT_EXPORT int32_t kvt_unregister_buffer(kvt_client *client, uint64_t addr) {
    return guarded("kvt_unregister_buffer", [&]() -> int32_t {
        require_client(client);
        if (addr == 0) bad_argument("unregister_buffer: address is null");
        int first_rc = 0;
        for (const auto &stripe : client->stripes)
            if (const int rc = stripe->unregister_buffer(as_pointer(addr)); rc != 0 && first_rc == 0)
                first_rc = rc;
        if (first_rc != 0)
            throw KvtError(first_rc < 0 ? first_rc : kFailed,
                           "Mooncake unregister_buffer(" + std::to_string(addr) + ") returned " +
                               std::to_string(first_rc));
        return 0;
    });
}

KVT_EXPORT int32_t kvt_health_check(kvt_client *client) {
    return guarded("kvt_health_check", [&]() -> int32_t {
        const int64_t rc = kvt_shim::ask_master(require_client(client));
        if (rc < 0)
            throw KvtError(static_cast<int32_t>(rc),
                           "the master did not answer: Mooncake code " + std::to_string(rc));
        return 0;
    });
}

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
        if (nof_replica_num >= 0) set_nof_replica_num(config, nof_replica_num);
        // The master places replicas; it tries preferred segments first. A segment is named by
        // its client's local_hostname, which the transfer endpoint shows with or without its port.
        for (const auto &node : client->nodes.healthy_while_some_suspect()) {
            config.preferred_segments.push_back(node);
            if (const auto colon = node.rfind(':'); colon != std::string::npos)
                config.preferred_segments.push_back(node.substr(0, colon));
        }

        std::optional<kvt_staging::Batch> staging;
        if (guard != nullptr) {
            staging.emplace(client->staging, lens);
            if (!copy_in(guard, bufs, lens, *staging)) {
                std::fill_n(results, n, KVT_NOT_DELIVERED);
                return 0;
            }
        }
        const std::vector<void *> &from = staging ? staging->buffers() : bufs;
        // Each stripe stores a run of the batch, all at once.
        const size_t parts = std::min(client->stripes.size(), static_cast<size_t>(n));
        try {
            in_parallel(parts, [&](size_t p) {
                const auto run = run_of(p, n, parts);
                auto got = client->stripes[p]->batch_put_from(items(ks, run), items(from, run),
                                                               items(lens, run), config);
                check_count("batch_put_from", got, static_cast<int32_t>(run.second - run.first));
                copy_results(got, results + run.first);
            });
        } catch (...) {
            if (staging) staging->all_late();
            throw;
        }
        // A put that failed may have left a transfer behind that still sends from its staging.
        if (staging)
            for (int32_t i = 0; i < n; ++i)
                if (results[i] != 0) staging->late(i);
        return 0;
    });
}

namespace {

// The first replica of `key`, from `from` on, whose node is not suspect; npos when none is. The
// key is remembered for each suspect node it skips, so that a probe of that node reads a key the
// master still places there.
size_t next_replica(NodeTable &nodes, const std::string &name, const kvt_shim::Locations::Key &key,
                    size_t from) {
    for (size_t r = from; r < key.nodes.size(); ++r) {
        if (!nodes.suspect(key.nodes[r])) return r;
        nodes.remember(key.nodes[r], name);
    }
    return std::string::npos;
}

bool corrupted(int64_t code) {
    return code == static_cast<int64_t>(mooncake::ErrorCode::CHECKSUM_MISMATCH);
}

// Where one kvt_load call reads into: the caller's buffers when it gave no guard, else staging
// memory, whose buffer of a key with a failed transfer is quarantined (staging.h).
struct Landing {
    const std::vector<void *> &into;
    kvt_staging::Batch *staging;  // null: `into` is the caller's

    // A transfer of key i failed; it may still write into the key's buffer. A mismatched checksum
    // is a transfer that completed.
    void failed(size_t i, int64_t code) {
        if (staging != nullptr && !corrupted(code)) staging->late(i);
    }
};

// One transfer from one node: keys which[j] of the located batch, each from its replica choice[j]
// (all on `node`), into landing.into[which[j]]. Registered in the node table while it runs, so that
// a stuck transfer makes exactly its node suspect.
std::vector<int64_t> read_group(kvt_client &c, mooncake::RealClient &stripe,
                                const std::vector<std::string> &ks,
                                const kvt_shim::Locations &where, const std::string &node,
                                const std::vector<size_t> &which, const std::vector<size_t> &choice,
                                const std::vector<void *> &into) {
    std::vector<void *> group_bufs;
    for (size_t i : which) group_bufs.push_back(into[i]);
    c.nodes.remember(node, ks[which[0]]);
    const uint64_t running = c.nodes.begin({node});
    std::vector<int64_t> got;
    kvt_shim::ReadingFrom reading(c.nodes.index(node));
    try {
        got = kvt_shim::read_from(stripe, ks, where, which, choice, group_bufs);
    } catch (...) {
        c.nodes.end(running);
        throw;
    }
    c.nodes.end(running);
    check_count("BatchGet", got, static_cast<int32_t>(which.size()));
    // A read that reached the node connected to its data address, which the connect guard avoids
    // while the node is suspect.
    if (std::find(got.begin(), got.end(), 0) != got.end() && c.nodes.address_unknown(node) &&
        !reading.connected().empty())
        c.nodes.learn_address(node, reading.connected());
    return got;
}

// Reads the located keys in `pending` (positions in the batch), each from its replica in
// `choice`: one transfer per node and stripe, all at once; a key whose transfer failed marks its
// node suspect. Writes results[i] for every pending key.
void read_from_replicas(kvt_client &c, const std::vector<std::string> &ks,
                        const kvt_shim::Locations &where, const std::vector<size_t> &pending,
                        const std::vector<size_t> &choice, Landing &landing, int64_t *results) {
    if (pending.empty()) return;
    std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> by_node;
    for (size_t j = 0; j < pending.size(); ++j) {
        auto &[which, chosen] = by_node[where.keys[pending[j]].nodes[choice[j]]];
        which.push_back(pending[j]);
        chosen.push_back(choice[j]);
    }
    // A silent node then holds up only its own keys' transfers, and the time they take is theirs.
    struct Group {
        const std::string *node;
        mooncake::RealClient *stripe;
        std::vector<size_t> which, choice;
        std::vector<int64_t> got;
    };
    std::vector<Group> groups;
    for (const auto &[node, keys] : by_node) {
        // A replica in the first stripe's own segment is a memcpy, which more threads do not speed up.
        const bool local = kvt_shim::copies_locally(*c.stripes[0], node);
        const size_t parts = local ? 1 : std::min(c.stripes.size(), keys.first.size());
        for (size_t p = 0; p < parts; ++p) {
            const auto run = run_of(p, keys.first.size(), parts);
            groups.push_back({&node, c.stripes[p].get(), items(keys.first, run), items(keys.second, run), {}});
        }
    }
    in_parallel(groups.size(), [&](size_t g) {
        auto &group = groups[g];
        group.got = read_group(c, *group.stripe, ks, where, *group.node, group.which, group.choice, landing.into);
    });

    for (const auto &group : groups) {
        for (size_t j = 0; j < group.which.size(); ++j) {
            const size_t i = group.which[j];
            const auto &key = where.keys[i];
            if (group.got[j] == 0) {
                results[i] = static_cast<int64_t>(key.size);
                continue;
            }
            results[i] = group.got[j];
            landing.failed(i, group.got[j]);
            // No second replica into the same buffer: a transfer Mooncake reports failed may
            // still deliver late bytes into it (seen on a flapping link as foreign objects).
            // The key stays a transient error; later reads skip the suspect node up front.
            if (transfer_failed(group.got[j])) c.nodes.mark(*group.node);
        }
    }
}

// A replica whose bytes differ from its object's checksum was written after its put completed
// (by a transfer that Mooncake had reported failed, into memory handed on since); another replica
// may be whole, and is read instead. When the others are all on suspect nodes, the key is
// ON_SUSPECT_NODES: one of them may be whole.
void read_other_replicas_of_corrupted(kvt_client &c, const std::vector<std::string> &ks,
                                      const kvt_shim::Locations &where, std::vector<size_t> pending,
                                      std::vector<size_t> choice, Landing &landing, int64_t *results) {
    while (!pending.empty()) {
        std::vector<size_t> again, next;
        for (size_t j = 0; j < pending.size(); ++j) {
            const size_t i = pending[j];
            if (!corrupted(results[i])) continue;
            const size_t r = next_replica(c.nodes, ks[i], where.keys[i], choice[j] + 1);
            if (r != std::string::npos) {
                again.push_back(i);
                next.push_back(r);
            } else if (choice[j] + 1 < where.keys[i].nodes.size()) {
                results[i] = KVT_ON_SUSPECT_NODES;
            }
        }
        read_from_replicas(c, ks, where, again, next, landing, results);
        pending = std::move(again);
        choice = std::move(next);
    }
}

// An object none of whose replicas was read whole is removed: a store of a key that exists keeps
// the old object, so it could never be replaced otherwise. Its key stays an error.
void remove_corrupted(kvt_client &c, const std::vector<std::string> &ks, const int64_t *results) {
    std::vector<std::string> corrupted_keys;
    for (size_t i = 0; i < ks.size(); ++i)
        if (corrupted(results[i])) corrupted_keys.push_back(ks[i]);
    if (!corrupted_keys.empty()) next_stripe(c).batchRemove(corrupted_keys, /*force=*/true);
}

// Reads keys whose replicas are outside memory (disk, NoF) with batch_get_into. Writes results[i]
// for each of them: the bytes read, or an error code.
void read_elsewhere(mooncake::RealClient &c, const std::vector<std::string> &ks,
                    const std::vector<size_t> &elsewhere, const std::vector<size_t> &lens,
                    Landing &landing, int64_t *results) {
    if (elsewhere.empty()) return;
    std::vector<std::string> eks;
    std::vector<void *> ebufs;
    std::vector<size_t> elens;
    for (size_t i : elsewhere) {
        eks.push_back(ks[i]);
        ebufs.push_back(landing.into[i]);
        elens.push_back(lens[i]);
    }
    auto got = c.batch_get_into(eks, ebufs, elens);
    check_count("batch_get_into", got, static_cast<int32_t>(elsewhere.size()));
    for (size_t j = 0; j < elsewhere.size(); ++j) {
        results[elsewhere[j]] = got[j];
        if (got[j] < 0) landing.failed(elsewhere[j], got[j]);
    }
}

// Copies each key read whole (results[i] >= 0 bytes) from its staging into the caller's buffer
// while holding the guard, one key at a time. Once the caller has closed the guard, the keys not
// copied yet get KVT_NOT_DELIVERED.
void copy_out(int32_t *guard, const kvt_staging::Batch &staging, const std::vector<void *> &to,
              int64_t *results) {
    bool open = true;
    for (size_t i = 0; i < to.size(); ++i) {
        if (results[i] < 0) continue;
        open = open && kvt_staging::while_held(guard, [&] {
            std::memcpy(to[i], staging.buffers()[i], static_cast<size_t>(results[i]));
        });
        if (!open) results[i] = KVT_NOT_DELIVERED;
    }
}

}  // namespace

KVT_EXPORT int32_t kvt_load(kvt_client *client, const char *const *keys,
                            const int32_t *key_lens, const int64_t *addrs, const int64_t *sizes,
                            int32_t n, int32_t *guard, int64_t *results) {
    return guarded("kvt_load", [&]() -> int32_t {
        auto &c = require_client(client);
        if (!check_batch(keys, key_lens, n, results)) return 0;
        auto ks = to_keys(keys, key_lens, n);
        std::vector<void *> bufs;
        std::vector<size_t> lens;
        to_buffers(addrs, sizes, n, bufs, lens);
        std::optional<kvt_staging::Batch> staging;
        if (guard != nullptr) staging.emplace(client->staging, lens);
        Landing landing{staging ? staging->buffers() : bufs, staging ? &*staging : nullptr};

        client->nodes.sweep();
        const auto where = kvt_shim::locate(c, ks);
        check_count("BatchQuery", where.keys, n);
        std::vector<size_t> pending, choice, elsewhere;
        for (int32_t i = 0; i < n; ++i) {
            const auto &key = where.keys[i];
            if (key.error < 0) {
                results[i] = key.error;
            } else if (key.elsewhere) {
                elsewhere.push_back(i);
            } else if (lens[i] < key.size) {
                results[i] = static_cast<int64_t>(mooncake::ErrorCode::INVALID_PARAMS);
            } else if (const size_t r = next_replica(client->nodes, ks[i], key, 0); r != std::string::npos) {
                pending.push_back(i);
                choice.push_back(r);
            } else {
                results[i] = KVT_ON_SUSPECT_NODES;
            }
        }
        try {
            read_from_replicas(*client, ks, where, pending, choice, landing, results);
            read_other_replicas_of_corrupted(*client, ks, where, pending, choice, landing, results);
            read_elsewhere(c, ks, elsewhere, lens, landing, results);
        } catch (...) {
            if (staging) staging->all_late();
            throw;
        }
        if (staging) copy_out(guard, *staging, bufs, results);
        remove_corrupted(*client, ks, results);
        return 0;
    });
}

KVT_EXPORT int32_t kvt_nodes(kvt_client *client, char *buf, int32_t cap) {
    return guarded("kvt_nodes", [&]() -> int32_t {
        require_client(client);
        if (cap < 0 || (cap > 0 && buf == nullptr)) bad_argument("nodes: bad buffer");
        client->nodes.sweep();
        const std::string text = client->nodes.describe();
        if (cap > 0) {
            const size_t copied = std::min(text.size(), static_cast<size_t>(cap) - 1);
            std::copy_n(text.data(), copied, buf);
            buf[copied] = '\0';
        }
        return static_cast<int32_t>(text.size());
    });
}

KVT_EXPORT int32_t kvt_probe_node(kvt_client *client, const char *endpoint) {
    return guarded("kvt_probe_node", [&]() -> int32_t {
        auto &c = require_client(client);
        if (endpoint == nullptr) bad_argument("probe_node: endpoint is null");
        const std::string node(endpoint);
        const std::vector<std::string> keys = client->nodes.probe_keys(node);
        if (keys.empty()) bad_argument("probe_node: no key was read from " + node);
        const auto where = kvt_shim::locate(c, keys);
        check_count("BatchQuery", where.keys, static_cast<int32_t>(keys.size()));
        bool unanswered = false;
        for (size_t k = 0; k < keys.size(); ++k) {
            const auto &located = where.keys[k];
            if (located.error == static_cast<int64_t>(mooncake::ErrorCode::OBJECT_NOT_FOUND)) continue;
            if (located.error < 0) {
                unanswered = true;  // the master may be away
                continue;
            }
            const auto r = std::find(located.nodes.begin(), located.nodes.end(), node);
            if (r == located.nodes.end()) continue;
            std::vector<char> scratch(located.size);
            const uint64_t running = client->nodes.begin({node});
            std::vector<int64_t> got;
            kvt_shim::Probing through_to_the_node;
            try {
                got = kvt_shim::read_from(c, keys, where, {k},
                                          {static_cast<size_t>(r - located.nodes.begin())},
                                          {scratch.data()});
            } catch (...) {
                client->nodes.end(running);
                throw;
            }
            client->nodes.end(running);
            check_count("BatchGet", got, 1);
            if (got[0] != 0) return 0;
            client->nodes.clear(node);
            return 1;
        }
        if (unanswered) return 0;
        // The master lists none of these keys there any more. A workload that deletes what it
        // read soon leaves that so while the master still places new keys on the node; only a
        // node no read has met for a while is gone from the master's placements.
        if (client->nodes.met_within(node, kMetRecentlyMs)) return 0;
        client->nodes.clear(node);
        return 1;
    });
}

KVT_EXPORT int32_t kvt_lookup(kvt_client *client, const char *const *keys,
                              const int32_t *key_lens, int32_t n, int64_t *results) {
    return guarded("kvt_lookup", [&]() -> int32_t {
        require_client(client);
        if (!check_batch(keys, key_lens, n, results)) return 0;
        auto got = next_stripe(*client).batchIsExist(to_keys(keys, key_lens, n));
        check_count("batchIsExist", got, n);
        copy_results(got, results);
        return 0;
    });
}

KVT_EXPORT int32_t kvt_delete(kvt_client *client, const char *const *keys,
                              const int32_t *key_lens, int32_t n, int64_t *results) {
    return guarded("kvt_delete", [&]() -> int32_t {
        require_client(client);
        if (!check_batch(keys, key_lens, n, results)) return 0;
        auto got = next_stripe(*client).batchRemove(to_keys(keys, key_lens, n), /*force=*/true);
        check_count("batchRemove", got, n);
        copy_results(got, results);
        return 0;
    });
}
