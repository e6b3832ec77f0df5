package io.kvtier.mooncake.batch;

import io.kvtier.mooncake.AdapterMetrics;
import io.kvtier.mooncake.deadline.SliceGuard;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Stores again, after a pause, the keys Mooncake found no room for (NO_AVAILABLE_HANDLE): that
 * refusal makes Mooncake's master evict at its next eviction check (every 10 ms, at least
 * {@code eviction_ratio} of its memory, 5% by default), so a full cluster takes the store a moment
 * later. The pauses grow ({@link #FIRST_PAUSE_MILLIS}, then twice that) so as not to hammer a
 * master that cannot evict (every object leased); a key refused {@link #TRIES} times is reported
 * as NO_CAPACITY. The pauses hold the lane thread: a lane of a full cluster takes fewer stores.
 */
public final class CapacityRetry {
    static final long FIRST_PAUSE_MILLIS = 10;
    public static final int TRIES = 3;

    private final AdapterMetrics metrics;

    public CapacityRetry(AdapterMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * @param rc       the first answers; later ones replace them in place
     * @param guard    the batch's guard: once its deadline completed it, nothing is stored again
     * @param askAgain given positions in {@code rc}, stores those keys again and returns their answers
     * @return {@code rc}
     */
    long[] apply(long[] rc, SliceGuard guard, Function<int[], long[]> askAgain) {
        long pause = FIRST_PAUSE_MILLIS;
        for (int tried = 1; tried < TRIES; tried++, pause *= 2) {
            int[] refused = IntStream.range(0, rc.length)
                    .filter(j -> rc[j] == MooncakeCodes.NO_AVAILABLE_HANDLE).toArray();
            if (refused.length == 0 || guard.completed() || !pause(pause)) {
                return rc;
            }
            metrics.capacityRetries.inc(refused.length);
            long[] again = askAgain.apply(refused);
            for (int k = 0; k < refused.length; k++) {
                rc[refused[k]] = again[k];
            }
        }
        return rc;
    }

    /** @return false when interrupted: the adapter is closing */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
