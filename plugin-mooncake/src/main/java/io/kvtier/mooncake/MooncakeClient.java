package io.kvtier.mooncake;

import io.kvtier.mooncake.NativeAbi.MooncakeNative;
import io.kvtier.spi.ObjectKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import jnr.ffi.Pointer;

/**
 * One native Mooncake client ({@code kvt_client*}) and the typed calls on it. Batch calls are
 * made from lane threads; the adapter guarantees they have all returned before
 * {@link #destroy()} runs, and {@link #healthCheck()} (called from any thread) is serialised
 * with {@code destroy} so it never touches a freed client.
 */
final class MooncakeClient {
    private final MooncakeNative lib;
    private final Pointer handle;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    private MooncakeClient(MooncakeNative lib, Pointer handle) {
        this.lib = lib;
        this.handle = handle;
    }

    /**
     * {@code RealClient::create()} + {@code setup_internal(setup)}.
     *
     * @throws IllegalStateException with the connector's message when setup fails
     */
    static MooncakeClient create(MooncakeNative lib, Map<String, String> setup) {
        String[] keys = setup.keySet().toArray(new String[0]);
        String[] values = setup.values().toArray(new String[0]);
        Pointer handle = lib.kvt_create(keys, values, keys.length);
        if (handle == null || handle.address() == 0) {
            String why = lib.kvt_last_error();
            throw new IllegalStateException("mooncake_store: cannot create the Mooncake client: "
                    + (why == null || why.isEmpty() ? "kvt_create failed without a message" : why));
        }
        return new MooncakeClient(lib, handle);
    }

    /** Mooncake's max_mr_size read right after setup; 0 means no limit. */
    long maxMrSize() {
        return lib.kvt_max_mr_size(handle);
    }

    /** Returns null on success, else the connector's message. */
    String register(long address, long length) {
        return lib.kvt_register_buffer(handle, address, length) == 0 ? null : lib.kvt_last_error();
    }

    /** Returns null on success, else the connector's message. */
    String unregister(long address) {
        return lib.kvt_unregister_buffer(handle, address) == 0 ? null : lib.kvt_last_error();
    }

    synchronized boolean healthCheck() {
        return !destroyed.get() && lib.kvt_health_check(handle) == 0;
    }

    /** {@code batch_put_from}; results: 0 stored, negative Mooncake code. */
    long[] batchPut(List<ObjectKey> keys, int[] indices, long[] addrs, long[] sizes, ReplicateConfig replicas) {
        int n = addrs.length;
        KeySlab slab = encode(keys, indices, n);
        long[] results = new long[n];
        check("put", lib.kvt_batch_put(handle, slab.keys(), slab.lengths(), addrs, sizes, n,
                replicas.replicaNum(), replicas.nofReplicaNum(), results));
        return results;
    }

    /** {@code batch_get_into}; results: bytes read, or a negative Mooncake code. */
    long[] batchGet(List<ObjectKey> keys, int[] indices, long[] addrs, long[] sizes) {
        int n = addrs.length;
        KeySlab slab = encode(keys, indices, n);
        long[] results = new long[n];
        check("get", lib.kvt_batch_get(handle, slab.keys(), slab.lengths(), addrs, sizes, n, results));
        return results;
    }

    /** {@code batchIsExist}; results: 1 exists, 0 missing, negative Mooncake code. */
    long[] batchExists(List<ObjectKey> keys) {
        int n = keys.size();
        KeySlab slab = encode(keys, null, n);
        long[] results = new long[n];
        check("exists", lib.kvt_batch_exists(handle, slab.keys(), slab.lengths(), n, results));
        return results;
    }

    /** {@code batchRemove(force=true)}; results: 0 removed, -704 missing, other negative codes. */
    long[] batchRemove(List<ObjectKey> keys) {
        int n = keys.size();
        KeySlab slab = encode(keys, null, n);
        long[] results = new long[n];
        check("remove", lib.kvt_batch_remove(handle, slab.keys(), slab.lengths(), n, results));
        return results;
    }

    private KeySlab encode(List<ObjectKey> keys, int[] indices, int n) {
        if (destroyed.get()) {
            throw new IllegalStateException("the Mooncake client was destroyed");
        }
        KeySlab slab = KeySlab.forCurrentThread();
        slab.encode(keys, indices, n);
        return slab;
    }

    /** kvt_last_error is thread-local, so it is read right here, on the failing thread. */
    private void check(String op, int rc) {
        if (rc < 0) {
            throw new MooncakeBatchException(op, rc, lib.kvt_last_error());
        }
    }

    /** {@code tearDownAll} and free; runs at most once, later calls do nothing. */
    synchronized void destroy() {
        if (destroyed.compareAndSet(false, true)) {
            lib.kvt_destroy(handle);
        }
    }
}
