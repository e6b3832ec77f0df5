package io.kvtier.mooncake.batch;

import io.kvtier.mooncake.AdapterMetrics;
import io.kvtier.mooncake.deadline.SliceGuard;
import io.kvtier.mooncake.health.MasterHealth;
import io.kvtier.mooncake.health.StorageNodes;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Stores again, at once, the keys whose put failed to move its bytes (TRANSFER_FAIL) while some
 * storage node is suspect, up to {@link #TRIES} puts in all. Mooncake's master places replicas
 * without knowing which nodes are suspect (with {@code P2PHANDSHAKE} no preferred segment can name
 * one), and a put placed on one fails at once: its connects are refused. The master places each
 * put anew, at random, so with one suspect node of n and r replicas a put misses it with a chance
 * of 1 - r / n, and four tries leave (r / n)^4 of such keys failing: 20% at r = 2 of n = 3, 1% at
 * r = 1. Mooncake revokes a put whose transfer failed, which frees the key for the next; not
 * while the master is unreachable, when the revoke may have been lost and a next put would be
 * answered as stored. A store failing while no node is suspect is left for the host to decide.
 */
public final class PlacementRetry {
    public static final int TRIES = 4;

    private final MasterHealth health;
    private final StorageNodes nodes;
    private final AdapterMetrics metrics;

    public PlacementRetry(MasterHealth health, StorageNodes nodes, AdapterMetrics metrics) {
        this.health = health;
        this.nodes = nodes;
        this.metrics = metrics;
    }

    /**
     * @param rc       the first answers; later ones replace them in place
     * @param guard    the batch's guard: once its deadline completed it, nothing is stored again
     * @param askAgain given positions in {@code rc}, stores those keys again and returns their answers
     * @return {@code rc}
     */
    long[] apply(long[] rc, SliceGuard guard, Function<int[], long[]> askAgain) {
        for (int tried = 1; tried < TRIES; tried++) {
            int[] failed = IntStream.range(0, rc.length).filter(j -> rc[j] == MooncakeCodes.TRANSFER_FAIL).toArray();
            if (failed.length == 0 || guard.completed() || !health.healthy() || nodes.suspects().isEmpty()) {
                return rc;
            }
            metrics.retries.inc(failed.length);
            long[] again;
            try {
                again = askAgain.apply(failed);
            } catch (MooncakeBatchException e) {
                return rc; // the answers so far stand
            }
            for (int k = 0; k < failed.length; k++) {
                rc[failed[k]] = again[k];
            }
        }
        return rc;
    }
}
