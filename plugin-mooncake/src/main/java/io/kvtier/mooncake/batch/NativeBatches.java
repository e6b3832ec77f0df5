package io.kvtier.mooncake.batch;

import static io.kvtier.mooncake.batch.TransientRetry.pick;

import com.codahale.metrics.Timer;
import io.kvtier.mooncake.AdapterMetrics;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.config.MooncakeStoreConfig;
import io.kvtier.mooncake.config.ReplicateConfig;
import io.kvtier.mooncake.deadline.SliceGuard;
import io.kvtier.mooncake.health.StorageNodes;
import io.kvtier.mooncake.l1.L1Registration;
import io.kvtier.mooncake.lanes.Lane;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one batch as one native batch call on the calling thread (a lane's, or the caller's): the
 * call, a second ask for transient answers where the operation reads ({@link TransientRetry}),
 * stores again where Mooncake found no room ({@link CapacityRetry}), and the per-key outcomes of
 * the answers ({@link NativeResults}).
 */
public final class NativeBatches {
    private static final long[] NO_ANSWERS = new long[0];

    private final MooncakeClient client;
    private final ReplicateConfig replicas;
    private final TransientRetry retry;
    private final CapacityRetry capacity;
    private final NativeResults results;
    private final StorageNodes nodes;
    private final AdapterMetrics metrics;
    /**
     * Whether a batch's deadline may complete it early: loads write their slices and stores read
     * them only under the batch's guard.
     */
    private final boolean guarded;

    public NativeBatches(MooncakeClient client, MooncakeStoreConfig config, TransientRetry retry, CapacityRetry capacity,
                  NativeResults results, L1Registration registration, StorageNodes nodes, AdapterMetrics metrics) {
        this.client = client;
        this.replicas = config.replicateConfig();
        this.retry = retry;
        this.capacity = capacity;
        this.results = results;
        this.nodes = nodes;
        this.metrics = metrics;
        // RDMA reads and writes the registered L1 itself, with no receive or send the connector could hold back.
        this.guarded = !registration.enabled();
    }

    public boolean guarded() {
        return guarded;
    }

    /**
     * Mooncake reads the slices itself: only while the guard is held, when the batch's deadline may
     * complete it first (kvt_store). What a call that outlived its batch stored is still counted.
     */
    public BatchResult store(List<ObjectKey> keys, CheckedBuffers batch, SliceGuard guard) {
        long[] rc = NO_ANSWERS;
        if (batch.nativeCount() > 0) {
            try {
                int[] indices = batch.nativeIndices();
                long[] addresses = batch.addresses();
                long[] sizes = batch.sizes();
                SliceGuard held = held(guard);
                Timer calls = metrics.nativeCall(Lane.STORE);
                rc = capacity.apply(calls.timeSupplier(() -> client.store(keys, indices, addresses, sizes, replicas, held)),
                        guard, again -> calls.timeSupplier(() -> client.store(keys, pick(indices, again),
                                pick(addresses, again), pick(sizes, again), replicas, held)));
            } finally {
                batch.releaseSlices();
            }
        }
        return results.stored(keys, batch, rc);
    }

    public BatchResult lookup(List<ObjectKey> keys) {
        Timer calls = metrics.nativeCall(Lane.LOOKUP);
        return results.found(keys, retry.apply(calls.timeSupplier(() -> client.lookup(keys)),
                again -> calls.timeSupplier(() -> client.lookup(pick(keys, again)))));
    }

    /**
     * The connector writes L1 only while the guard is held, copying each key in from its own
     * staging memory. Nodes whose reads stalled are avoided first, and each key's outcome goes to
     * the node model at once, so that a retry reads around a node that just failed.
     *
     * @return null when the batch completed (its deadline) before all its bytes were written into L1
     */
    public BatchResult load(List<ObjectKey> keys, CheckedBuffers batch, SliceGuard guard) {
        long[] rc = NO_ANSWERS;
        if (batch.nativeCount() > 0) {
            try {
                int[] indices = batch.nativeIndices();
                long[] sizes = batch.sizes();
                long[] addresses = batch.addresses();
                SliceGuard held = held(guard);
                nodes.sweep();
                rc = retry.apply(load(keys, indices, addresses, sizes, held),
                        again -> load(keys, pick(indices, again), pick(addresses, again), pick(sizes, again), held));
                if (guard.completed()) {
                    return null; // some bytes were not written: the slices are no longer this batch's
                }
            } finally {
                batch.releaseSlices();
            }
        }
        return results.loaded(keys, batch, rc);
    }

    private long[] load(List<ObjectKey> keys, int[] indices, long[] addresses, long[] sizes, SliceGuard held) {
        long started = nodes.now();
        MooncakeClient.Loaded loaded = metrics.nativeCall(Lane.LOAD).timeSupplier(
                () -> client.load(keys, indices, addresses, sizes, held));
        List<String> wireKeys = new ArrayList<>(addresses.length);
        for (int j = 0; j < addresses.length; j++) {
            wireKeys.add(keys.get(indices == null ? j : indices[j]).wireString());
        }
        nodes.loaded(wireKeys, loaded, started);
        return loaded.results();
    }

    /** The guard the connector holds around its reads and writes of the slices, when it can hold one. */
    private SliceGuard held(SliceGuard guard) {
        return guarded ? guard : SliceGuard.ALWAYS;
    }

    public BatchResult delete(List<ObjectKey> keys) {
        return results.deleted(keys, metrics.nativeCall(Lane.DELETE).timeSupplier(() -> client.delete(keys)));
    }
}
