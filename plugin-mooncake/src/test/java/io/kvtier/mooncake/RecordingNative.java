package io.kvtier.mooncake;

import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import jnr.ffi.Pointer;
import jnr.ffi.byref.LongLongByReference;

/** Passes every call to the real binding (the test double) and records what the factory and adapter handed it. */
final class RecordingNative implements MooncakeNative {
    record Registration(long address, long length, int rc) {}

    private final MooncakeNative delegate;
    final List<Registration> registered = Collections.synchronizedList(new ArrayList<>());
    final List<Long> unregistered = Collections.synchronizedList(new ArrayList<>());
    /** Every address passed to a put or get batch. */
    final List<Long> batchAddresses = Collections.synchronizedList(new ArrayList<>());
    final List<int[]> putReplicas = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger creates = new AtomicInteger();
    final AtomicInteger destroys = new AtomicInteger();
    final CountDownLatch destroyed = new CountDownLatch(1);
    final AtomicInteger batchCalls = new AtomicInteger();
    /** The thread of every lookup call, in order. */
    final List<Thread> lookupThreads = Collections.synchronizedList(new ArrayList<>());
    /** Counted down when a lookup call has entered the native code. */
    final CountDownLatch lookupEntered = new CountDownLatch(1);
    private final AtomicInteger lookupsInNative = new AtomicInteger();
    /** Counted down when a load call has entered the native code. */
    final CountDownLatch loadEntered = new CountDownLatch(1);
    /** How many load calls are inside the native code now. */
    final AtomicInteger loadsInNative = new AtomicInteger();
    /** When set, answers the health checks instead of the double: a master that flaps, say. */
    volatile IntSupplier healthCheck;
    /** How many lookup calls were inside the native code when the client was destroyed. */
    volatile int lookupsInNativeAtDestroy = -1;

    RecordingNative(MooncakeNative delegate) {
        this.delegate = delegate;
    }

    @Override
    public String kvt_last_error() {
        return delegate.kvt_last_error();
    }

    @Override
    public int kvt_log_to_file(String path, long maxBytes) {
        return delegate.kvt_log_to_file(path, maxBytes);
    }

    @Override
    public Pointer kvt_create(String[] keys, String[] values, int n, int rpcTimeoutMs, int nativeClients) {
        creates.incrementAndGet();
        return delegate.kvt_create(keys, values, n, rpcTimeoutMs, nativeClients);
    }

    @Override
    public void kvt_destroy(Pointer client) {
        destroys.incrementAndGet();
        lookupsInNativeAtDestroy = lookupsInNative.get();
        delegate.kvt_destroy(client);
        destroyed.countDown();
    }

    @Override
    public int kvt_unchecked_objects(Pointer client, int policy) {
        return delegate.kvt_unchecked_objects(client, policy);
    }

    @Override
    public int kvt_max_mr_size(Pointer client, LongLongByReference out) {
        return delegate.kvt_max_mr_size(client, out);
    }

    @Override
    public int kvt_register_buffer(Pointer client, long addr, long len) {
        int rc = delegate.kvt_register_buffer(client, addr, len);
        registered.add(new Registration(addr, len, rc));
        return rc;
    }

    @Override
    public int kvt_unregister_buffer(Pointer client, long addr) {
        unregistered.add(addr);
        return delegate.kvt_unregister_buffer(client, addr);
    }

    @Override
    public int kvt_health_check(Pointer client) {
        IntSupplier answer = healthCheck;
        return answer != null ? answer.getAsInt() : delegate.kvt_health_check(client);
    }

    @Override
    public int kvt_store(Pointer client, Pointer keys, Pointer keyLens, Pointer addrs, Pointer sizes, int n,
                         int replicaNum, int nofReplicaNum, Pointer guard, Pointer results) {
        batchCalls.incrementAndGet();
        record(addrs, n);
        putReplicas.add(new int[] {replicaNum, nofReplicaNum});
        return delegate.kvt_store(client, keys, keyLens, addrs, sizes, n, replicaNum, nofReplicaNum, guard, results);
    }

    @Override
    public int kvt_load(Pointer client, Pointer keys, Pointer keyLens, Pointer addrs, Pointer sizes,
                        int n, Pointer guard, Pointer results, Pointer nodes, Pointer avoided) {
        batchCalls.incrementAndGet();
        record(addrs, n);
        loadsInNative.incrementAndGet();
        loadEntered.countDown();
        try {
            return delegate.kvt_load(client, keys, keyLens, addrs, sizes, n, guard, results, nodes, avoided);
        } finally {
            loadsInNative.decrementAndGet();
        }
    }

    @Override
    public int kvt_lookup(Pointer client, Pointer keys, Pointer keyLens, int n, Pointer results) {
        batchCalls.incrementAndGet();
        lookupThreads.add(Thread.currentThread());
        lookupsInNative.incrementAndGet();
        lookupEntered.countDown();
        try {
            return delegate.kvt_lookup(client, keys, keyLens, n, results);
        } finally {
            lookupsInNative.decrementAndGet();
        }
    }

    @Override
    public int kvt_delete(Pointer client, Pointer keys, Pointer keyLens, int n, Pointer results) {
        batchCalls.incrementAndGet();
        return delegate.kvt_delete(client, keys, keyLens, n, results);
    }

    @Override
    public int kvt_node_reads(Pointer client, int[] running, long[] oldestMs, long[] quietMs, int cap) {
        return delegate.kvt_node_reads(client, running, oldestMs, quietMs, cap);
    }

    @Override
    public int kvt_node_name(Pointer client, int id, byte[] buf, int cap) {
        return delegate.kvt_node_name(client, id, buf, cap);
    }

    @Override
    public int kvt_avoid_node(Pointer client, int id, int avoid) {
        return delegate.kvt_avoid_node(client, id, avoid);
    }

    @Override
    public int kvt_probe_node(Pointer client, int id, byte[] key, int keyLen) {
        return delegate.kvt_probe_node(client, id, key, keyLen);
    }

    private void record(Pointer addrs, int n) {
        for (int i = 0; i < n; i++) {
            batchAddresses.add(addrs.getLong(8L * i));
        }
    }
}
