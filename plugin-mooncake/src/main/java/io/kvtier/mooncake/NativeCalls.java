package io.kvtier.mooncake;

import java.time.Duration;

/**
 * Threads of an instance that make native calls: its lanes, its master probe, its node probe.
 * {@link Lifecycle} stops them before it frees the native client, which it frees only when every
 * one returned within its bound: freeing the client under a running call could crash the JVM.
 */
final class NativeCalls {
    /** Ends the threads and waits for them, at most {@code bound}; returns whether they ended. */
    @FunctionalInterface
    interface Stop {
        boolean stop(Duration bound) throws InterruptedException;
    }

    private final Duration bound;
    private final Stop stop;

    NativeCalls(Duration bound, Stop stop) {
        this.bound = bound;
        this.stop = stop;
    }

    /** How long {@link #stop()} waits, for the warning when it waited in vain. */
    Duration bound() {
        return bound;
    }

    /** Whether every native call returned within the bound; an interrupt counts as no. */
    boolean stop() {
        try {
            return stop.stop(bound);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
