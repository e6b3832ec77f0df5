package io.kvtier.host;

import java.util.Arrays;

/** Batch latencies of one operation, kept whole so that percentiles are exact. */
public final class Latencies {
    private long[] nanos = new long[64];
    private int count;

    public synchronized void record(long elapsedNanos) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, count * 2);
        }
        nanos[count++] = elapsedNanos;
    }

    /** The p-th percentile (nearest rank) in milliseconds; 0 when nothing was recorded. */
    public synchronized double percentileMillis(double p) {
        if (count == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * count);
        return sorted[Math.max(0, rank - 1)] / 1e6;
    }
}
