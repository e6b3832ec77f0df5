/*
 * kvtier Mooncake connector: a thin, synchronous C ABI over one mooncake::RealClient.
 *
 * Bound from Java with JNR-FFI (io.kvtier.mooncake.MooncakeNative). Every function is
 * noexcept at the boundary: C++ exceptions are caught inside and turned into a return
 * code plus a message readable through kvt_last_error() on the same thread.
 *
 * Batches cross as a key slab: `keys` is a char** whose entries point at the key bytes
 * (not necessarily NUL-terminated), `key_lens` gives their lengths. Buffers cross as
 * parallel arrays of addresses and sizes. Per-key results are written to `results`,
 * which has `n` entries. A batch function returns 0 when it produced `n` per-key results
 * and a negative value when the whole batch failed (nothing written to `results`).
 * n == 0 returns 0 at once without touching any pointer.
 *
 * Negative returns: -22 means the caller broke this contract (null client or pointer,
 * n < 0, negative length, duplicate config key); register/unregister pass Mooncake's own
 * error code through, and so does kvt_health_check; anything else is -1. kvt_last_error()
 * always holds the explanation.
 *
 * The same sources also build libkvtier_mooncake_testdouble.so, an in-memory stand-in
 * for Mooncake used only by tests (native/testdouble/).
 */
#ifndef KVTIER_MOONCAKE_H
#define KVTIER_MOONCAKE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kvt_client kvt_client;

/* The version of this ABI. It changes whenever a function's signature or meaning changes. The
 * Java binding binds kvt_abi_version alone first and refuses a library of another version
 * before binding anything else: a call through a stale signature would crash the JVM. */
#define KVT_ABI_VERSION 2

/* Returns KVT_ABI_VERSION as this library was built. */
int32_t kvt_abi_version(void);

/* Message of the last failure on the calling thread ("" if none). Valid until the
 * thread's next kvt_* call. */
const char *kvt_last_error(void);

/* Sends Mooncake's log (glog, every severity) to the file at `path` instead of stderr, where
 * only FATAL lines still go. The first call in a process decides; later calls do nothing and
 * return 0. Call it before the first kvt_create to catch setup's lines too. */
int32_t kvt_log_to_file(const char *path);

/* RealClient::create() + setup_internal(ConfigDict{keys[i] -> values[i]}), with every RPC
 * of this client to its master bounded by rpc_timeout_ms (> 0), connecting included.
 * Returns NULL on failure; kvt_last_error() says why. */
kvt_client *kvt_create(const char *const *keys, const char *const *values, int32_t n,
                       int32_t rpc_timeout_ms);

/* Tears the client down (tearDownAll) and frees it. NULL is ignored. */
void kvt_destroy(kvt_client *client);

/* Mooncake's globalConfig().max_mr_size, read after setup. 0 means "no limit". */
uint64_t kvt_max_mr_size(kvt_client *client);

/* 0 on success, negative on failure. */
int32_t kvt_register_buffer(kvt_client *client, uint64_t addr, uint64_t len);
int32_t kvt_unregister_buffer(kvt_client *client, uint64_t addr);

/* Asks the master one question (whether a probe key exists) and returns 0 when it answered, or
 * Mooncake's negative error code (RPC_FAIL -900, RPC_TIMEOUT -901, ...). Mooncake's own
 * health_check cannot serve: a client without a segment sends no heartbeat, so it reports
 * healthy while its master is gone. */
int32_t kvt_health_check(kvt_client *client);

/* batch_put_from. replica_num / nof_replica_num < 0 keep Mooncake's defaults.
 * results[i]: 0 stored, negative Mooncake error code. */
int32_t kvt_store(kvt_client *client, const char *const *keys, const int32_t *key_lens,
                  const int64_t *addrs, const int64_t *sizes, int32_t n,
                  int32_t replica_num, int32_t nof_replica_num, int64_t *results);

/* batch_get_into. results[i]: bytes read (>= 0) or negative Mooncake error code. */
int32_t kvt_load(kvt_client *client, const char *const *keys, const int32_t *key_lens,
                 const int64_t *addrs, const int64_t *sizes, int32_t n, int64_t *results);

/* batchIsExist. results[i]: 1 exists, 0 missing, negative error code. */
int32_t kvt_lookup(kvt_client *client, const char *const *keys, const int32_t *key_lens,
                   int32_t n, int64_t *results);

/* batchRemove(force = true). results[i]: 0 removed, negative error code
 * (OBJECT_NOT_FOUND = -704 for a missing key). */
int32_t kvt_delete(kvt_client *client, const char *const *keys, const int32_t *key_lens,
                   int32_t n, int64_t *results);

#ifdef __cplusplus
}
#endif

#endif
