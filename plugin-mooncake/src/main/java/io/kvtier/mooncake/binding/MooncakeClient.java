package io.kvtier.mooncake.binding;

import io.kvtier.mooncake.batch.MooncakeBatchException;
import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import io.kvtier.mooncake.config.ReplicateConfig;
import io.kvtier.mooncake.config.UncheckedObjects;
import io.kvtier.mooncake.deadline.SliceGuard;
import io.kvtier.spi.ObjectKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import jnr.ffi.Pointer;
import jnr.ffi.byref.LongLongByReference;

/**
 * The native client ({@code kvt_client*}, over one or more of Mooncake's) and the typed calls on
 * it; it owns the handle and frees it in {@link #close()}. Batch calls are made from lane threads;
 * the adapter guarantees they have all returned before {@code close()} runs, and
 * {@link #askMaster()} (called from any thread) is serialised with {@code close()} so it never
 * touches a freed client.
 */
public final class MooncakeClient implements AutoCloseable {
    private final MooncakeNative lib;
    private final Pointer handle;

    private final AtomicBoolean destroyed = new AtomicBoolean();
    private static final int NODES_USUALLY = 16;
    /** Node calls may come from any thread (the health threads); close() waits them out. */
    private final ReadWriteLock nodeCalls = new ReentrantReadWriteLock();

    private MooncakeClient(MooncakeNative lib, Pointer handle) {
        this.lib = lib;
        this.handle = handle;
    }

    /**
     * {@code RealClient::create()} + {@code setup_internal(setup)}, {@code nativeClients} times
     * (see {@code kvt_create}), with every RPC to the master bounded by {@code rpcTimeout}.
     * Mooncake's log is redirected first (see {@link MooncakeLog}).
     *
     * @throws IllegalStateException with the connector's message when setup fails
     */
    public static MooncakeClient open(MooncakeNative lib, Map<String, String> setup, Duration rpcTimeout,
                               int nativeClients) {
        Optional<Path> log = MooncakeLog.redirect(lib, System::getenv);
        String[] keys = setup.keySet().toArray(new String[0]);
        String[] values = setup.values().toArray(new String[0]);
        Pointer handle = lib.kvt_create(keys, values, keys.length, (int) rpcTimeout.toMillis(), nativeClients);
        if (handle == null || handle.address() == 0) {
            String why = lib.kvt_last_error();
            MooncakeLog.keep();
            throw new IllegalStateException("mooncake_store: cannot create the Mooncake client: "
                    + (why == null || why.isEmpty() ? "kvt_create failed without a message" : why)
                    + log.map(path -> " (Mooncake's log: " + path + ")").orElse(""));
        }
        return new MooncakeClient(lib, handle);
    }

    /** What this client's loads from now on do with an object stored without a checksum. */
    public void uncheckedObjects(UncheckedObjects policy) {
        if (lib.kvt_unchecked_objects(handle, policy.nativeCode()) != 0) {
            throw new IllegalStateException("mooncake_store: cannot set unchecked_objects: " + lib.kvt_last_error());
        }
    }

    /**
     * Mooncake's max_mr_size read right after setup; 0 means no limit.
     *
     * @throws IllegalStateException with the connector's message when it cannot be read
     */
    public long maxMrSize() {
        LongLongByReference out = new LongLongByReference();
        if (lib.kvt_max_mr_size(handle, out) != 0) {
            throw new IllegalStateException("mooncake_store: cannot read Mooncake's max_mr_size: " + lib.kvt_last_error());
        }
        return out.longValue();
    }

    /** What kvt_node_reads shows of each node met, by id; empty once the client is destroyed. */
    public NodeReads nodeReads() {
        return onNodes(() -> {
            int[] running = new int[0];
            long[] oldest = new long[0];
            long[] quiet = new long[0];
            // Room for the nodes of a usual cluster, so one call does; more nodes (a node is never
            // forgotten) make another with room for all.
            int count = NODES_USUALLY;
            do {
                int cap = Math.max(count, running.length);
                running = new int[cap];
                oldest = new long[cap];
                quiet = new long[cap];
                count = lib.kvt_node_reads(handle, running, oldest, quiet, cap);
                if (count < 0) {
                    throw new IllegalStateException("mooncake_store: cannot read the nodes' reads: " + lib.kvt_last_error());
                }
            } while (count > running.length);
            return new NodeReads(Arrays.copyOf(running, count), Arrays.copyOf(oldest, count), Arrays.copyOf(quiet, count));
        }, new NodeReads(new int[0], new long[0], new long[0]));
    }

    /** Node {@code id}'s transfer endpoint. */
    public String nodeName(int id) {
        return onNodes(() -> {
            byte[] name = new byte[64];
            int length = lib.kvt_node_name(handle, id, name, name.length);
            if (length >= name.length) {
                name = new byte[length + 1];
                length = lib.kvt_node_name(handle, id, name, name.length);
            }
            if (length < 0) {
                throw new IllegalStateException("mooncake_store: cannot name node " + id + ": " + lib.kvt_last_error());
            }
            return new String(name, 0, length, StandardCharsets.UTF_8);
        }, "node " + id);
    }

    /** Whether this client's reads and stores avoid node {@code id} (kvt_avoid_node). */
    public void avoidNode(int id, boolean avoid) {
        onNodes(() -> {
            if (lib.kvt_avoid_node(handle, id, avoid ? 1 : 0) != 0) {
                throw new IllegalStateException("mooncake_store: cannot avoid node " + id + ": " + lib.kvt_last_error());
            }
            return null;
        }, null);
    }

    /** Reads {@code wireKey} from node {@code id}, avoided or not. Blocks as long as that read does. */
    public ProbeAnswer probeNode(int id, String wireKey) {
        return onNodes(() -> {
            byte[] key = wireKey.getBytes(StandardCharsets.UTF_8);
            int rc = lib.kvt_probe_node(handle, id, key, key.length);
            return switch (rc) {
                case 1 -> ProbeAnswer.ANSWERED;
                case 0 -> ProbeAnswer.UNANSWERED;
                case 2 -> ProbeAnswer.NOT_THERE;
                default -> throw new IllegalStateException("mooncake_store: cannot probe node " + id + ": " + lib.kvt_last_error());
            };
        }, ProbeAnswer.UNANSWERED);
    }

    private <T> T onNodes(Supplier<T> call, T whenDestroyed) {
        nodeCalls.readLock().lock();
        try {
            return destroyed.get() ? whenDestroyed : call.get();
        } finally {
            nodeCalls.readLock().unlock();
        }
    }

    /** Returns null on success, else the connector's message. */
    public String register(long address, long length) {
        return lib.kvt_register_buffer(handle, address, length) == 0 ? null : lib.kvt_last_error();
    }

    /** Returns null on success, else the connector's message. */
    public String unregister(long address) {
        return lib.kvt_unregister_buffer(handle, address) == 0 ? null : lib.kvt_last_error();
    }

    /** Asks the master one question: null when it answered, else why it did not. */
    public synchronized String askMaster() {
        if (destroyed.get()) {
            return "the Mooncake client was destroyed";
        }
        int rc = lib.kvt_health_check(handle);
        return rc == 0 ? null : "the master does not answer: " + MooncakeCodes.describe(rc);
    }

    /**
     * {@code batch_put_from}, reading {@code addrs} only while {@code guard} is held when it has
     * a word (kvt_store); results: 0 stored, negative Mooncake code.
     */
    public long[] store(List<ObjectKey> keys, int[] indices, long[] addrs, long[] sizes, ReplicateConfig replicas,
                 SliceGuard guard) {
        int n = addrs.length;
        BatchSlab slab = slab(keys, indices, n);
        slab.buffers(addrs, sizes, n);
        check("store", lib.kvt_store(handle, slab.keys(), slab.lengths(), slab.addresses(), slab.sizes(), n,
                replicas.replicaNum(), replicas.nofReplicaNum(), guard.word(), slab.results()));
        return slab.results(n);
    }

    /**
     * Reads into {@code addrs}, only while {@code guard} is held unless it is
     * {@link SliceGuard#ALWAYS} (kvt_load); results: bytes read, or a negative Mooncake code; per key
     * the id of the node it was read from, and of an avoided node holding a replica of it, or -1.
     */
    public Loaded load(List<ObjectKey> keys, int[] indices, long[] addrs, long[] sizes, SliceGuard guard) {
        int n = addrs.length;
        BatchSlab slab = slab(keys, indices, n);
        slab.buffers(addrs, sizes, n);
        check("load", lib.kvt_load(handle, slab.keys(), slab.lengths(), slab.addresses(), slab.sizes(), n,
                guard.word(), slab.results(), slab.nodes(), slab.avoided()));
        return new Loaded(slab.results(n), slab.nodes(n), slab.avoided(n));
    }

    public record Loaded(long[] results, int[] nodes, int[] avoided) {}

    /** Per node id: the transfers running from it, how long the oldest has run, ms since it was heard (-1 never). */
    public record NodeReads(int[] running, long[] oldestMs, long[] quietMs) {}

    public enum ProbeAnswer { ANSWERED, UNANSWERED, NOT_THERE }

    /** {@code batchIsExist}; results: 1 exists, 0 missing, negative Mooncake code. */
    public long[] lookup(List<ObjectKey> keys) {
        int n = keys.size();
        BatchSlab slab = slab(keys, null, n);
        check("lookup", lib.kvt_lookup(handle, slab.keys(), slab.lengths(), n, slab.results()));
        return slab.results(n);
    }

    /** {@code delete(force=true)}; results: 0 removed, -704 missing, other negative codes. */
    public long[] delete(List<ObjectKey> keys) {
        int n = keys.size();
        BatchSlab slab = slab(keys, null, n);
        check("delete", lib.kvt_delete(handle, slab.keys(), slab.lengths(), n, slab.results()));
        return slab.results(n);
    }

    private BatchSlab slab(List<ObjectKey> keys, int[] indices, int n) {
        if (destroyed.get()) {
            throw new IllegalStateException("the Mooncake client was destroyed");
        }
        BatchSlab slab = BatchSlab.forCurrentThread();
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
    @Override
    public synchronized void close() {
        nodeCalls.writeLock().lock();
        try {
            if (destroyed.compareAndSet(false, true)) {
                lib.kvt_destroy(handle);
            }
        } finally {
            nodeCalls.writeLock().unlock();
        }
    }
}
