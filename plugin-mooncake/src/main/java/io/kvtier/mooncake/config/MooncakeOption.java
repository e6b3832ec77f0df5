package io.kvtier.mooncake.config;

import java.util.Arrays;
import java.util.List;

/**
 * Every option of {@code mooncake_store}: the keys of reference.conf's {@code options} block,
 * where each one's default and meaning are written down (the host falls back to that file). The
 * parser reads and checks each one, {@code kvtier validate} shows each one, and none is forwarded
 * to Mooncake's {@code setup_internal}. Tests hold this list equal to reference.conf, and to what
 * the parser rejects and the view shows.
 */
enum MooncakeOption {
    /** Threads of the shared worker pool. */
    NUM_WORKERS("num_workers"),
    /** A worker pool ("lane") per operation. */
    PER_OP_WORKERS("per_op_workers"),
    /** Memory replicas of every write; shown, as in LMCache, in {@code replicate_config}. */
    REPLICA_NUM("replica_num", "replicate_config"),
    /** NoF replicas of every write; shown in {@code replicate_config}. */
    NOF_REPLICA_NUM("nof_replica_num", "replicate_config"),
    /** kvtier's bound on one RPC to the master. */
    RPC_TIMEOUT_MS("rpc_timeout_ms"),
    /**
     * Once whether a lookup ran on the calling thread; now accepted and ignored, so that a
     * declaration written for an older kvtier still starts: it only ever moved where a lookup
     * waited, never what it answered.
     */
    LOOKUP_ON_CALLER_THREAD("lookup_on_caller_thread"),
    /** LMCache's common eviction block, accepted for LMCache's declarations; Mooncake evicts on its own. */
    EVICTION("eviction"),
    /** The longest a caller waits on one batch. */
    BATCH_TIMEOUT_MS("batch_timeout_ms"),
    /** How long a read runs, and its storage node stays silent, before the node becomes suspect. */
    SUSPECT_AFTER_MS("suspect_after_ms"),
    /** Native calls at most left running without a lane thread. */
    MAX_ABANDONED_CALLS("max_abandoned_calls"),
    /** Native Mooncake clients that share each batch's transfers. */
    NATIVE_CLIENTS("native_clients"),
    /** What a load does with an object stored without a checksum. */
    UNCHECKED_OBJECTS("unchecked_objects");

    /** What {@code kvtier validate} shows for a key that is accepted and ignored. */
    static final String IGNORED = "ignored";

    private static final List<String> KEYS = Arrays.stream(values()).map(MooncakeOption::key).toList();

    private final String key;
    private final String viewKey;

    MooncakeOption(String key) {
        this(key, key);
    }

    MooncakeOption(String key, String viewKey) {
        this.key = key;
        this.viewKey = viewKey;
    }

    String key() {
        return key;
    }

    /** Where {@code kvtier validate} shows it. */
    String viewKey() {
        return viewKey;
    }

    /** Every option's key, in this order. */
    static List<String> keys() {
        return KEYS;
    }

    static boolean isOption(String key) {
        return KEYS.contains(key);
    }
}
