// The C ABI's setup and bookkeeping (include/kvtier_mooncake.h): creating and destroying a
// client of native Mooncake clients, registering memory, health, lookups and deletes. The same
// sources build the real connector and the test double (-DKVTIER_TESTDOUBLE, mooncake_api.h).
#include "kvtier_mooncake.h"

#include <cstdlib>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "client.h"

using namespace kvt_boundary;
using namespace kvt_client_parts;

namespace {

// Every client is created alone: Mooncake's process-wide state (its global config, its
// transfer engine's first setup) is not made for concurrent setups.
std::mutex g_create_mutex;

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

// One RealClient set up with `config`; `which` names it in an error when there are several.
std::shared_ptr<mooncake::RealClient> set_up(const mooncake::ConfigDict &config, const std::string &which,
                                             int32_t rpc_timeout_ms) {
    // Mooncake reads its master RPC deadlines only from the environment, when a client's
    // MasterClient is built; clients are set up one at a time, so each reads its own. setenv does
    // not free the old strings, so a getenv on another thread still reads a valid one.
    const std::string ms = std::to_string(rpc_timeout_ms);
    setenv("MC_RPC_TIMEOUT_MS", ms.c_str(), 1);
    setenv("MC_RPC_CONNECT_TIMEOUT_MS", ms.c_str(), 1);
    // Not RealClient::create(), which hands the client to Mooncake's ResourceTracker: at exit, and
    // on a signal its own thread takes, it tears every client down, also under a native call still
    // running (a fault test's JVM crashed at exit so), and it blocks SIGINT, SIGTERM and SIGHUP in
    // the calling JVM thread. kvt_destroy tears the client down.
    auto client = std::make_shared<mooncake::RealClient>();
    auto setup = client->setup_internal(config);
    if (!setup) {
        const auto code = setup.error();
        std::string msg = "Mooncake setup_internal failed" + which + ": " + std::string(mooncake::toString(code)) +
                          " (" + std::to_string(static_cast<int>(code)) + ")";
        const std::string detail = kvt_shim::setup_failure_detail(*client);
        if (!detail.empty()) msg += ": " + detail;
        throw KvtError(kFailed, msg);  // the RealClient destructor cleans up
    }
    return client;
}

void *as_pointer(uint64_t addr) { return reinterpret_cast<void *>(static_cast<uintptr_t>(addr)); }

}  // namespace

KVT_EXPORT int32_t kvt_abi_version(void) { return KVT_ABI_VERSION; }

KVT_EXPORT const char *kvt_last_error(void) { return g_last_error.c_str(); }

KVT_EXPORT int32_t kvt_log_to_file(const char *path, uint64_t max_bytes) {
    return guarded("kvt_log_to_file", [&]() -> int32_t {
        if (path == nullptr || *path == '\0') bad_argument("log path is null or empty");
        if (max_bytes < 2) bad_argument("log max_bytes must be at least 2, got " + std::to_string(max_bytes));
        static std::once_flag once;
        std::call_once(once, [&] { kvt_shim::log_to_file(path, max_bytes); });
        return 0;
    });
}

KVT_EXPORT kvt_client *kvt_create(const char *const *keys, const char *const *values,
                                  int32_t n, int32_t rpc_timeout_ms,
                                  int32_t native_clients) {
    kvt_client *out = nullptr;
    guarded("kvt_create", [&]() -> int32_t {
        if (n < 0) bad_argument("n must be >= 0, got " + std::to_string(n));
        if (rpc_timeout_ms <= 0)
            bad_argument("rpc_timeout_ms must be > 0, got " + std::to_string(rpc_timeout_ms));
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
        auto handle = std::make_unique<kvt_client>();
        handle->stripes.push_back(set_up(config, "", rpc_timeout_ms));
        const auto further = further_stripe(config);
        for (int32_t s = 1; s < native_clients; ++s)
            handle->stripes.push_back(set_up(
                further, " for native client " + std::to_string(s + 1) + " of " + std::to_string(native_clients),
                rpc_timeout_ms));
        handle->max_mr_size = mooncake::globalConfig().max_mr_size;
        const auto segment = config.find("global_segment_size");
        handle->own_segment = segment != config.end() && std::strtoull(segment->second.c_str(), nullptr, 10) > 0;
        out = handle.release();
        return 0;
    });
    return out;
}

KVT_EXPORT int32_t kvt_unchecked_objects(kvt_client *client, int32_t policy) {
    return guarded("kvt_unchecked_objects", [&]() -> int32_t {
        require_client(client);
        if (policy != KVT_UNCHECKED_LOAD && policy != KVT_UNCHECKED_MISS && policy != KVT_UNCHECKED_REMOVE)
            bad_argument("unchecked objects policy must be 0, 1 or 2, got " + std::to_string(policy));
        client->unchecked_objects.store(policy, std::memory_order_relaxed);
        return 0;
    });
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

// With every stripe: each one's transfer engine reads and writes registered memory on its own.
KVT_EXPORT int32_t kvt_register_buffer(kvt_client *client, uint64_t addr, uint64_t len) {
    return guarded("kvt_register_buffer", [&]() -> int32_t {
        require_client(client);
        if (addr == 0) bad_argument("register_buffer: address is null");
        if (len == 0) bad_argument("register_buffer: length is 0");
        for (size_t s = 0; s < client->stripes.size(); ++s) {
            const int rc = client->stripes[s]->register_buffer(as_pointer(addr), static_cast<size_t>(len));
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
