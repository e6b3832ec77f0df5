// kvtier's Mooncake connector: the C ABI of include/kvtier_mooncake.h over one
// mooncake::RealClient. The counterpart of LMCache's MooncakeConnector without its worker
// pools and completion queue: Java owns threading, so every call here is synchronous and
// maps one Java batch to one Mooncake batch call.
//
// Compiled twice from this same file: against real Mooncake (libkvtier_mooncake.so) and
// against the in-memory test double (libkvtier_mooncake_testdouble.so, -DKVTIER_TESTDOUBLE).
#include "kvtier_mooncake.h"

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "mooncake_api.h"

#define KVT_EXPORT extern "C" __attribute__((visibility("default")))

struct kvt_client {
    std::shared_ptr<mooncake::RealClient> client;
    // globalConfig().max_mr_size read once right after setup (as LMCache does): the L1
    // block size must not change under registrations made with it.
    uint64_t max_mr_size = 0;
};

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

mooncake::RealClient &require_client(kvt_client *c) {
    if (c == nullptr || !c->client) bad_argument("client is null");
    return *c->client;
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

// Mooncake reads its RPC deadlines from the environment once, when a client connects to its
// master. Clients are created one at a time with this instance's deadline in place, and the
// process's own values are put back afterwards.
std::mutex g_create_mutex;

class ScopedEnv {
  public:
    ScopedEnv(const char *name, const std::string &value) : name_(name) {
        if (const char *old = std::getenv(name)) old_ = old;
        setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (old_) setenv(name_, old_->c_str(), 1);
        else unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

  private:
    const char *name_;
    std::optional<std::string> old_;
};

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

KVT_EXPORT kvt_client *kvt_create(const char *const *keys, const char *const *values,
                                  int32_t n, int32_t rpc_timeout_ms) {
    kvt_client *out = nullptr;
    guarded("kvt_create", [&]() -> int32_t {
        if (n < 0) bad_argument("n must be >= 0, got " + std::to_string(n));
        if (rpc_timeout_ms <= 0)
            bad_argument("rpc_timeout_ms must be > 0, got " + std::to_string(rpc_timeout_ms));
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
        const std::string timeout = std::to_string(rpc_timeout_ms);
        ScopedEnv request_timeout("MC_RPC_TIMEOUT_MS", timeout);
        ScopedEnv connect_timeout("MC_RPC_CONNECT_TIMEOUT_MS", timeout);
        auto handle = std::make_unique<kvt_client>();
        handle->client = create_keeping_sigmask();
        if (!handle->client) throw KvtError(kFailed, "Failed to create mooncake RealClient");

        auto setup = handle->client->setup_internal(config);
        if (!setup) {
            const auto code = setup.error();
            std::string msg = "Mooncake setup_internal failed: " +
                              std::string(mooncake::toString(code)) + " (" +
                              std::to_string(static_cast<int>(code)) + ")";
            const std::string detail = kvt_shim::setup_failure_detail(*handle->client);
            if (!detail.empty()) msg += ": " + detail;
            throw KvtError(kFailed, msg);  // the RealClient destructor cleans up
        }
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
        if (owned->client) {
            const int rc = owned->client->tearDownAll();
            if (rc != 0)  // still freed: there is nothing the caller could retry
                g_last_error = "Mooncake tearDownAll returned " + std::to_string(rc);
        }
        return 0;
    });
}

KVT_EXPORT uint64_t kvt_max_mr_size(kvt_client *client) {
    uint64_t out = 0;
    guarded("kvt_max_mr_size", [&]() -> int32_t {
        require_client(client);
        out = client->max_mr_size;
        return 0;
    });
    return out;
}

KVT_EXPORT int32_t kvt_register_buffer(kvt_client *client, uint64_t addr, uint64_t len) {
    return guarded("kvt_register_buffer", [&]() -> int32_t {
        auto &c = require_client(client);
        if (addr == 0) bad_argument("register_buffer: address is null");
        if (len == 0) bad_argument("register_buffer: length is 0");
        const int rc = c.register_buffer(reinterpret_cast<void *>(static_cast<uintptr_t>(addr)),
                                         static_cast<size_t>(len));
        if (rc != 0)
            throw KvtError(rc < 0 ? rc : kFailed,
                           "Mooncake register_buffer(" + std::to_string(addr) + ", " +
                               std::to_string(len) + ") returned " + std::to_string(rc));
        return 0;
    });
}

KVT_EXPORT int32_t kvt_unregister_buffer(kvt_client *client, uint64_t addr) {
    return guarded("kvt_unregister_buffer", [&]() -> int32_t {
        auto &c = require_client(client);
        if (addr == 0) bad_argument("unregister_buffer: address is null");
        const int rc = c.unregister_buffer(reinterpret_cast<void *>(static_cast<uintptr_t>(addr)));
        if (rc != 0)
            throw KvtError(rc < 0 ? rc : kFailed, "Mooncake unregister_buffer(" +
                                                      std::to_string(addr) + ") returned " +
                                                      std::to_string(rc));
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

KVT_EXPORT int32_t kvt_store(kvt_client *client, const char *const *keys,
                             const int32_t *key_lens, const int64_t *addrs,
                             const int64_t *sizes, int32_t n, int32_t replica_num,
                             int32_t nof_replica_num, int64_t *results) {
    return guarded("kvt_store", [&]() -> int32_t {
        auto &c = require_client(client);
        if (!check_batch(keys, key_lens, n, results)) return 0;
        auto ks = to_keys(keys, key_lens, n);
        std::vector<void *> bufs;
        std::vector<size_t> lens;
        to_buffers(addrs, sizes, n, bufs, lens);

        mooncake::ReplicateConfig config;  // Mooncake's defaults unless overridden
        if (replica_num >= 0) config.replica_num = static_cast<size_t>(replica_num);
        if (nof_replica_num >= 0) set_nof_replica_num(config, nof_replica_num);

        auto got = c.batch_put_from(ks, bufs, lens, config);
        check_count("batch_put_from", got, n);
        copy_results(got, results);
        return 0;
    });
}

KVT_EXPORT int32_t kvt_load(kvt_client *client, const char *const *keys,
                            const int32_t *key_lens, const int64_t *addrs,
                            const int64_t *sizes, int32_t n, int64_t *results) {
    return guarded("kvt_load", [&]() -> int32_t {
        auto &c = require_client(client);
        if (!check_batch(keys, key_lens, n, results)) return 0;
        auto ks = to_keys(keys, key_lens, n);
        std::vector<void *> bufs;
        std::vector<size_t> lens;
        to_buffers(addrs, sizes, n, bufs, lens);
        auto got = c.batch_get_into(ks, bufs, lens);
        check_count("batch_get_into", got, n);
        copy_results(got, results);
        return 0;
    });
}

KVT_EXPORT int32_t kvt_lookup(kvt_client *client, const char *const *keys,
                              const int32_t *key_lens, int32_t n, int64_t *results) {
    return guarded("kvt_lookup", [&]() -> int32_t {
        auto &c = require_client(client);
        if (!check_batch(keys, key_lens, n, results)) return 0;
        auto got = c.batchIsExist(to_keys(keys, key_lens, n));
        check_count("batchIsExist", got, n);
        copy_results(got, results);
        return 0;
    });
}

KVT_EXPORT int32_t kvt_delete(kvt_client *client, const char *const *keys,
                              const int32_t *key_lens, int32_t n, int64_t *results) {
    return guarded("kvt_delete", [&]() -> int32_t {
        auto &c = require_client(client);
        if (!check_batch(keys, key_lens, n, results)) return 0;
        auto got = c.batchRemove(to_keys(keys, key_lens, n), /*force=*/true);
        check_count("batchRemove", got, n);
        copy_results(got, results);
        return 0;
    });
}
