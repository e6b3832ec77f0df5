package io.kvtier.mooncake;

import static io.kvtier.mooncake.TransientRetry.pick;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ObjectKey;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Runs one batch as one native batch call on the calling thread (a lane's, or the caller's): the
 * call, a second ask for transient answers where the operation reads ({@link TransientRetry}),
 * and the per-key outcomes of the answers ({@link NativeResults}).
 */
final class NativeBatches {
    private static final long[] NO_ANSWERS = new long[0];

    private final MooncakeClient client;
    private final ReplicateConfig replicas;
    private final TransientRetry retry;
    private final NativeResults results;
    /**
     * Whether a batch's deadline may complete it early: loads write their slices and stores read
     * them only under the batch's guard.
     */
    private final boolean guarded;

    @Inject
    NativeBatches(MooncakeClient client, MooncakeStoreConfig config, TransientRetry retry, NativeResults results,
                  L1Registration registration) {
        this.client = client;
        this.replicas = config.replicateConfig();
        this.retry = retry;
        this.results = results;
        // RDMA reads and writes the registered L1 itself: staging memory would have to be registered too.
        this.guarded = !registration.enabled();
    }

    boolean guarded() {
        return guarded;
    }

    /**
     * Mooncake reads the slices itself: only while the guard is held, when the batch's deadline may
     * complete it first (kvt_store). What a call that outlived its batch stored is still counted.
     */
    BatchResult store(List<ObjectKey> keys, CheckedBuffers batch, SliceGuard guard) {
        long[] rc = NO_ANSWERS;
        if (batch.nativeCount() > 0) {
            try {
                rc = client.store(keys, batch.nativeIndices(), batch.addresses(), batch.sizes(), replicas,
                        guarded ? guard : SliceGuard.ALWAYS);
            } finally {
                batch.releaseSlices();
            }
        }
        return results.stored(keys, batch, rc);
    }

    BatchResult lookup(List<ObjectKey> keys) {
        return results.found(keys, retry.apply(client.lookup(keys), again -> client.lookup(pick(keys, again))));
    }

    /**
     * The connector writes L1 only while the guard is held: Mooncake's transfers receive into the
     * slices under it, and a replica outside memory (disk) is copied in from staging memory under it.
     *
     * @return null when the batch completed (its deadline) before all its bytes were written into L1
     */
    BatchResult load(List<ObjectKey> keys, CheckedBuffers batch, SliceGuard guard) {
        long[] rc = NO_ANSWERS;
        if (batch.nativeCount() > 0) {
            try {
                int[] indices = batch.nativeIndices();
                long[] sizes = batch.sizes();
                long[] addresses = batch.addresses();
                long[] staging = guarded ? StagingBuffer.forCurrentThread().layout(sizes) : null;
                long[] first = client.load(keys, indices, addresses, staging, sizes, guard);
                // A key asked again must not land where a failed transfer may still write.
                boolean retired = retireStagingAfterAFailedTransfer(first);
                rc = retry.apply(first, again -> {
                    long[] stagingAgain = staging == null ? null
                            : retired ? StagingBuffer.forCurrentThread().layout(pick(sizes, again)) : pick(staging, again);
                    long[] second = client.load(keys, pick(indices, again), pick(addresses, again), stagingAgain,
                            pick(sizes, again), guard);
                    // Only the second answers: the first ones' failures retired their memory already.
                    retireStagingAfterAFailedTransfer(second);
                    return second;
                });
                if (guard.completed()) {
                    return null; // some bytes were not written: the slices are no longer this batch's
                }
            } finally {
                batch.releaseSlices();
            }
        }
        return results.loaded(keys, batch, rc);
    }

    /** @return whether {@code rc} has a failed transfer, after which this thread's staging memory was replaced */
    private boolean retireStagingAfterAFailedTransfer(long[] rc) {
        if (!guarded) {
            return false;
        }
        for (long code : rc) {
            if (code == MooncakeCodes.TRANSFER_FAIL) {
                StagingBuffer.forCurrentThread().retire();
                return true;
            }
        }
        return false;
    }

    BatchResult delete(List<ObjectKey> keys) {
        return results.deleted(keys, client.delete(keys));
    }
}
