package io.kvtier.host.soak;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** Spaces operations evenly so that all threads together stay under a rate; a rate of 0 does nothing. */
final class RateLimiter {
    private final long intervalNanos;
    private final AtomicLong nextSlot = new AtomicLong(Long.MIN_VALUE);

    RateLimiter(int perSecond) {
        intervalNanos = perSecond <= 0 ? 0 : 1_000_000_000L / perSecond;
    }

    /** Waits for this caller's slot. */
    void acquire() {
        if (intervalNanos == 0) {
            return;
        }
        long now = System.nanoTime();
        long previous = nextSlot.getAndUpdate(next -> Math.max(next, now) + intervalNanos);
        long slot = Math.max(previous, now);
        while (slot - System.nanoTime() > 0) {
            LockSupport.parkNanos(slot - System.nanoTime());
        }
    }
}
