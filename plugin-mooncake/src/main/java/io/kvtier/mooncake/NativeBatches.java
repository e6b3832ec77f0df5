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

    @Inject
    NativeBatches(MooncakeClient client, MooncakeStoreConfig config, TransientRetry retry, NativeResults results) {
        this.client = client;
        this.replicas = config.replicateConfig();
        this.retry = retry;
        this.results = results;
    }

    BatchResult store(List<ObjectKey> keys, CheckedBuffers batch) {
        long[] rc = NO_ANSWERS;
        if (batch.nativeCount() > 0) {
            try {
                rc = client.store(keys, batch.nativeIndices(), batch.addresses(), batch.sizes(), replicas);
            } finally {
                batch.releaseSlices();
            }
        }
        return results.stored(keys, batch, rc);
    }

    BatchResult lookup(List<ObjectKey> keys) {
        return results.found(keys, retry.apply(client.lookup(keys), again -> client.lookup(pick(keys, again))));
    }

    BatchResult load(List<ObjectKey> keys, CheckedBuffers batch) {
        long[] rc = NO_ANSWERS;
        if (batch.nativeCount() > 0) {
            try {
                int[] indices = batch.nativeIndices();
                rc = retry.apply(client.load(keys, indices, batch.addresses(), batch.sizes()),
                        again -> client.load(keys, pick(indices, again), pick(batch.addresses(), again),
                                pick(batch.sizes(), again)));
            } finally {
                batch.releaseSlices();
            }
        }
        return results.loaded(keys, batch, rc);
    }

    BatchResult delete(List<ObjectKey> keys) {
        return results.deleted(keys, client.delete(keys));
    }
}
