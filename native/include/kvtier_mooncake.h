/*
 * kvtier Mooncake connector: a thin, synchronous C ABI over mooncake::RealClient.
 *
 * Bound from Java with JNR-FFI (io.kvtier.mooncake.binding.NativeAbi.MooncakeNative). Every function is
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
#define KVT_ABI_VERSION 10

/* Returns KVT_ABI_VERSION as this library was built. */
int32_t kvt_abi_version(void);

/* Message of the last failure on the calling thread ("" if none). Valid until the
 * thread's next kvt_* call. */
const char *kvt_last_error(void);

/* Sends Mooncake's log (glog) to the file at `path` instead of stderr, where only FATAL lines
 * still go: from WARNING up, unless GLOG_minloglevel is set. The file is created at the first line
 * and, once it holds max_bytes / 2, renamed to `<path>.1` (replacing that) for a new one, so the
 * two stay within max_bytes. With MC_LOG_DIR set, Mooncake's own choice stands and this does
 * nothing. The first call in a process decides; later calls do nothing and return 0. Call it before
 * the first kvt_create to catch setup's lines too. -22 for a null or empty path, or max_bytes < 2. */
int32_t kvt_log_to_file(const char *path, uint64_t max_bytes);

/* The most native clients one kvt_client drives. */
#define KVT_MAX_NATIVE_CLIENTS 64

/* native_clients (1 to KVT_MAX_NATIVE_CLIENTS) times RealClient::create() + setup_internal: the
 * first with ConfigDict{keys[i] -> values[i]}, the others with the same but no segment
 * (global_segment_size 0), no IPC socket, HTTP server or SSD offload, and local_hostname without
 * a port. Store and load split every batch into runs, one per native client (a load's per storage
 * node), transferred all at once; lookups and deletes take the clients in turn. Every RPC of
 * this client to its master, its setup's too, is bounded by rpc_timeout_ms (> 0): Mooncake reads
 * that deadline only from the environment, so MC_RPC_TIMEOUT_MS and MC_RPC_CONNECT_TIMEOUT_MS are
 * set before each native client is set up, one at a time. MOONCAKE_STORE_CHECKSUM is set to true
 * before Mooncake first reads its environment, unless the environment has it; creation fails
 * when Mooncake had read it before. Returns NULL on failure; kvt_last_error() says why. */
kvt_client *kvt_create(const char *const *keys, const char *const *values, int32_t n,
                       int32_t rpc_timeout_ms, int32_t native_clients);

/* Tears the client down (tearDownAll) and frees it. NULL is ignored. */
void kvt_destroy(kvt_client *client);

/* Writes Mooncake's globalConfig().max_mr_size, read after setup, to *out (0 means "no limit")
 * and returns 0; returns -22 for a null client or out, leaving *out alone. */
int32_t kvt_max_mr_size(kvt_client *client, uint64_t *out);

/* 0 on success, negative on failure. */
int32_t kvt_register_buffer(kvt_client *client, uint64_t addr, uint64_t len);
int32_t kvt_unregister_buffer(kvt_client *client, uint64_t addr);

/* Asks the master one question (whether a probe key exists) and returns 0 when it answered, or
 * Mooncake's negative error code (RPC_FAIL -900, RPC_TIMEOUT -901, ...). Mooncake's own
 * health_check cannot serve: a client without a segment sends no heartbeat, so it reports
 * healthy while its master is gone. */
int32_t kvt_health_check(kvt_client *client);

/* batch_put_from. replica_num / nof_replica_num < 0 keep Mooncake's defaults.
 * results[i]: 0 stored, negative Mooncake error code.
 *
 * guard null: addrs are read for as long as the call needs them.
 * guard given: the caller may give up on the batch before this call returns, and addrs are read
 * only while this call holds *guard (as kvt_load holds it): each key is copied into the
 * connector's own staging memory, and the put reads that. Once the caller has closed the guard
 * before the copies are done, nothing is stored and every key gets KVT_NOT_DELIVERED; a store
 * that goes on after the caller gave up stores the bytes copied. A key's staging memory whose put
 * failed is not used again for 90 s: Mooncake may have given up on a transfer that still sends. */
int32_t kvt_store(kvt_client *client, const char *const *keys, const int32_t *key_lens,
                  const int64_t *addrs, const int64_t *sizes, int32_t n,
                  int32_t replica_num, int32_t nof_replica_num, int32_t *guard, int64_t *results);

/* Reads each key from one of its memory replicas: BatchQuery, then BatchGet from the first replica
 * whose node this client does not avoid (kvt_avoid_node); a key whose replica fails its checksum
 * moves on to its next replica not avoided within this call. A key whose replicas are all on
 * avoided nodes is not transferred: its result is KVT_ON_SUSPECT_NODES. Keys with replicas outside
 * memory (disk, NoF) go through batch_get_into. results[i]: bytes read (>= 0) or negative error
 * code. nodes[i]: the id of the node key i was read from (its result is that read's), -1 when
 * none (a miss, a replica outside memory, avoided nodes only); avoided[i]: the id of the first
 * avoided node one of its replicas is on, -1 when none is.
 *
 * guard null: every key is read straight into addrs[i] (RDMA, where the NIC writes registered L1).
 * guard given: the caller may give up on the batch before this call returns, and addrs[i] is
 * written only while this call runs and holds *guard (moved from KVT_GUARD_OPEN to
 * KVT_GUARD_COPYING, and back when done): each key is read into the connector's own staging memory
 * and copied into addrs[i] under the guard, except from a replica in this client's own segment,
 * which Mooncake copies with a memcpy its call waits for: read into addrs[i] while the call holds
 * the guard. Once *guard is KVT_GUARD_CLOSED (the caller's doing),
 * nothing more is written to addrs, and the keys not copied yet get KVT_NOT_DELIVERED. A key's
 * staging memory whose transfer failed is not used again for 90 s: the transfer may still write
 * into it. While the guard is held, the caller closing it waits. */
int32_t kvt_load(kvt_client *client, const char *const *keys, const int32_t *key_lens,
                 const int64_t *addrs, const int64_t *sizes, int32_t n, int32_t *guard,
                 int64_t *results, int32_t *nodes, int32_t *avoided);

/* What kvt_load does with an object stored without a checksum. Mooncake's clients at their
 * defaults store every object so (MOONCAKE_STORE_CHECKSUM unset), and a master promoted from a
 * snapshot serves every restored object so, whose memory objects stored since may have reused;
 * nothing Mooncake tells a client separates the two. */
#define KVT_UNCHECKED_LOAD 0   /* read it unverified, as every Mooncake client does (the default) */
#define KVT_UNCHECKED_MISS 1   /* report it missing (OBJECT_NOT_FOUND) and leave it in place */
#define KVT_UNCHECKED_REMOVE 2 /* report it missing and remove it, so that a store can replace it:
                                  only for a cluster whose every writer stores checksums */

/* Sets the client's KVT_UNCHECKED_* policy for the loads that start from now on; -22 for another
 * value. */
int32_t kvt_unchecked_objects(kvt_client *client, int32_t policy);

/* The states of kvt_load's and kvt_store's guard. */
#define KVT_GUARD_OPEN 0
#define KVT_GUARD_COPYING 1
#define KVT_GUARD_CLOSED 2

/* A key's result when its bytes were not delivered to addrs because the guard was closed. */
#define KVT_NOT_DELIVERED (-9101)

/* A key's result when every replica of it is on a suspect node: transient, like TRANSFER_FAIL. */
#define KVT_ON_SUSPECT_NODES (-9100)

/* The storage nodes this client has met, by id (0, 1, ... in the order met), with the transfers
 * running from each now, but for those already running when the node was last cleared
 * (kvt_avoid_node(id, 0)): for each id below cap, running[id] transfers, the oldest of which has run
 * oldest_ms[id] ms (0 when none runs), and quiet_ms[id] ms since bytes last came from the node
 * (-1 when none ever did, or when the build cannot tell: then judge a read by its length alone).
 * Returns the number of nodes, which may exceed cap; negative on failure. */
int32_t kvt_node_reads(kvt_client *client, int32_t *running, int64_t *oldest_ms, int64_t *quiet_ms,
                       int32_t cap);

/* Writes node id's endpoint (its transfer endpoint, "host:port") to buf, at most cap - 1 bytes and
 * a NUL, and returns its whole length; -22 for an id never given. */
int32_t kvt_node_name(kvt_client *client, int32_t id, char *buf, int32_t cap);

/* Whether this client avoids node id (avoid != 0): its reads take another replica (or answer
 * KVT_ON_SUSPECT_NODES), its stores name the other nodes as preferred segments, and its connects
 * to the node's data address fail at once (other clients of the process connect as they would).
 * avoid == 0 also stops counting the transfers running from it now in kvt_node_reads.
 * The caller decides; nothing here avoids a node on its own. */
int32_t kvt_avoid_node(kvt_client *client, int32_t id, int32_t avoid);

/* Reads key (key_len bytes) from node id, into memory of its own, even while the node is avoided.
 * Blocks for as long as the read does. */
int32_t kvt_probe_node(kvt_client *client, int32_t id, const char *key, int32_t key_len);
/* kvt_probe_node's answers: the node sent the key; it did not (or the master did not answer); the
 * master places no replica of the key on the node (or the key is gone). */
#define KVT_PROBE_ANSWERED 1
#define KVT_PROBE_UNANSWERED 0
#define KVT_PROBE_NOT_THERE 2

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
