package io.kvtier.host.soak;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How long an instance's callers wait for their batches: the longest wait of the run, the longest
 * of batches completed since the last progress line, and the age of the oldest batch still in
 * flight, which shows a caller that is stuck before its batch ever completes.
 */
final class BatchWaits {
    private final ConcurrentHashMap<Thread, Long> inFlightSince = new ConcurrentHashMap<>();
    private final AtomicLong longestNanos = new AtomicLong();
    private final AtomicLong intervalLongestNanos = new AtomicLong();

    /** The calling thread submits a batch. */
    long begin() {
        long now = System.nanoTime();
        inFlightSince.put(Thread.currentThread(), now);
        return now;
    }

    /** The calling thread's batch, begun at {@code startNanos}, has completed. */
    void end(long startNanos) {
        long waited = System.nanoTime() - startNanos;
        inFlightSince.remove(Thread.currentThread());
        longestNanos.accumulateAndGet(waited, Math::max);
        intervalLongestNanos.accumulateAndGet(waited, Math::max);
    }

    long longestNanos() {
        return longestNanos.get();
    }

    /** The longest wait of the batches completed since the last call. */
    long takeIntervalLongestNanos() {
        return intervalLongestNanos.getAndSet(0);
    }

    /** How long the oldest batch in flight has waited so far; 0 when none is. */
    long oldestInFlightNanos(long nowNanos) {
        return inFlightSince.values().stream().mapToLong(since -> nowNanos - since).max().orElse(0);
    }
}
