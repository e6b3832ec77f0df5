package io.kvtier.mooncake.batch;

import io.kvtier.mooncake.AdapterMetrics;
import io.kvtier.mooncake.batch.MooncakeCodes.Kind;
import io.kvtier.mooncake.health.MasterHealth;
import io.kvtier.spi.ObjectKey;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Asks once more for the keys whose answer was a transient code (a master restart, a remount, a
 * lost node), unless the master is known to be unreachable. Only lookups and loads are asked
 * again: both read, and a second answer is as good as a first. A store or delete is reported as
 * it failed, for the host to decide.
 */
public final class TransientRetry {
    private final MasterHealth health;
    private final AdapterMetrics metrics;

    public TransientRetry(MasterHealth health, AdapterMetrics metrics) {
        this.health = health;
        this.metrics = metrics;
    }

    /**
     * @param rc       the first answers; the second ones replace them in place
     * @param askAgain given positions in {@code rc}, returns the new answers for them
     * @return {@code rc}
     */
    long[] apply(long[] rc, Function<int[], long[]> askAgain) {
        int[] positions = new int[rc.length];
        int transients = 0;
        for (int j = 0; j < rc.length; j++) {
            // A key on suspect nodes only would fail just as fast again.
            if (MooncakeCodes.kind(rc[j]) == Kind.TRANSIENT && rc[j] != MooncakeCodes.ON_SUSPECT_NODES) {
                positions[transients++] = j;
            }
        }
        if (transients == 0 || !health.healthy()) {
            return rc;
        }
        int[] again = Arrays.copyOf(positions, transients);
        metrics.retries.inc(transients);
        long[] second;
        try {
            second = askAgain.apply(again);
        } catch (MooncakeBatchException e) {
            return rc; // the first answers stand
        }
        for (int k = 0; k < again.length; k++) {
            rc[again[k]] = second[k];
        }
        return rc;
    }

    static List<ObjectKey> pick(List<ObjectKey> keys, int[] positions) {
        return Arrays.stream(positions).mapToObj(keys::get).toList();
    }

    static int[] pick(int[] values, int[] positions) {
        return Arrays.stream(positions).map(j -> values[j]).toArray();
    }

    static long[] pick(long[] values, int[] positions) {
        return Arrays.stream(positions).mapToLong(j -> values[j]).toArray();
    }
}
