package io.kvtier.mooncake.binding;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.IgnoreError;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.byref.LongLongByReference;
import jnr.ffi.types.u_int64_t;

/**
 * Holds the binding interface. JNR-FFI generates the implementation in its own class loader,
 * and a class there can only implement a public interface; nesting that public interface in this
 * package-private class keeps it out of the plugin's API all the same (no code outside
 * {@code io.kvtier.mooncake} can name it).
 */
public final class NativeAbi {
    /** The {@code KVT_ABI_VERSION} of {@code native/include/kvtier_mooncake.h} this binding is written for. */
    public static final int VERSION = 10;

    private NativeAbi() {}

    /**
     * {@code kvt_abi_version} alone. It is bound before {@link MooncakeNative}, so that a library
     * which is not a kvtier connector, or a connector of another ABI, is refused before any call
     * through a signature it may not have.
     */
    @IgnoreError
    public interface AbiVersion {
        int kvt_abi_version();
    }

    /**
     * The C ABI of {@code native/include/kvtier_mooncake.h}, one method per function, bound with
     * JNR-FFI. Every argument of a batch call is an address in the calling thread's {@link BatchSlab}
     * (keys, key lengths, buffer addresses and sizes, results), so no string or array is marshalled
     * per call. errno is never read, so it is not saved ({@code @IgnoreError}).
     */
    @IgnoreError
    public interface MooncakeNative {
        /** The calling thread's last failure message; read it on the thread that failed. */
        String kvt_last_error();

        /** 0, or negative with kvt_last_error() saying why; only the first call in a process acts. */
        int kvt_log_to_file(String path, @u_int64_t long maxBytes);

        /** Returns null when create or setup failed. Called once per instance, so String[] is fine here. */
        Pointer kvt_create(@In String[] keys, @In String[] values, int n, int rpcTimeoutMs, int nativeClients);

        void kvt_destroy(Pointer client);

        /** 0, or -22 for a policy that is no KVT_UNCHECKED_*. */
        int kvt_unchecked_objects(Pointer client, int policy);

        /** 0 with the size in {@code out}, or negative with kvt_last_error() saying why. */
        int kvt_max_mr_size(Pointer client, LongLongByReference out);

        int kvt_register_buffer(Pointer client, @u_int64_t long addr, @u_int64_t long len);

        int kvt_unregister_buffer(Pointer client, @u_int64_t long addr);

        int kvt_health_check(Pointer client);

        /** {@code guard} null: {@code addrs} are read for as long as the call needs them. */
        int kvt_store(Pointer client, Pointer keys, Pointer keyLens, Pointer addrs, Pointer sizes, int n,
                      int replicaNum, int nofReplicaNum, Pointer guard, Pointer results);

        /**
         * {@code guard} null: the bytes land in {@code addrs} whenever they arrive. Per key, {@code nodes}:
         * the id of the node it was read from, {@code avoided}: of an avoided node holding a replica; or -1.
         */
        int kvt_load(Pointer client, Pointer keys, Pointer keyLens, Pointer addrs, Pointer sizes, int n,
                     Pointer guard, Pointer results, Pointer nodes, Pointer avoided);

        int kvt_lookup(Pointer client, Pointer keys, Pointer keyLens, int n, Pointer results);

        int kvt_delete(Pointer client, Pointer keys, Pointer keyLens, int n, Pointer results);

        /** The number of nodes met; fills the three arrays for the ids below {@code cap}. */
        int kvt_node_reads(Pointer client, @Out int[] running, @Out long[] oldestMs, @Out long[] quietMs, int cap);

        /** The length of node {@code id}'s endpoint; writes at most {@code cap - 1} bytes of it and a NUL. */
        int kvt_node_name(Pointer client, int id, @Out byte[] buf, int cap);

        int kvt_avoid_node(Pointer client, int id, int avoid);

        /** KVT_PROBE_ANSWERED (1), KVT_PROBE_UNANSWERED (0), KVT_PROBE_NOT_THERE (2), or negative on failure. */
        int kvt_probe_node(Pointer client, int id, @In byte[] key, int keyLen);
    }
}
