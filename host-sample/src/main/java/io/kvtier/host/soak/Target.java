package io.kvtier.host.soak;

import io.kvtier.spi.L2Adapter;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One instance under soak: its adapter, what the soak expects of it, and what it did. */
final class Target {
    final String name;
    final String type;
    /** Position among the soaked instances; part of every key and object, so instances never share one. */
    final int index;
    final L2Adapter adapter;
    final KeyBook book;
    final FaultWindows faults;
    final Map<Op, OpStats> stats = new EnumMap<>(Op.class);
    final BatchWaits waits = new BatchWaits();
    /** The keys sealed by the harness, claimed for good (see {@link KeyBook#seal}); empty until then. */
    volatile int[] sealed = new int[0];
    /** What the end of the soak found of the sealed keys. */
    volatile Sealed sealedAtEnd = Sealed.NONE;
    /** The last health read from health(); the health poll writes it, the metrics endpoint reads it. */
    volatile boolean healthy = true;
    /** Whether the last batch failed for every key (guarded by this). */
    private boolean failing;

    Target(String name, String type, int index, L2Adapter adapter, int keys, long settleNanos) {
        this.name = name;
        this.type = type;
        this.index = index;
        this.adapter = adapter;
        this.book = new KeyBook(keys);
        this.faults = new FaultWindows(settleNanos);
        for (Op op : Op.values()) {
            stats.put(op, new OpStats());
        }
    }

    OpStats stats(Op op) {
        return stats.get(op);
    }

    /** Reads the adapter's health; a health() that throws counts as unhealthy. */
    boolean pollHealth() {
        boolean now;
        try {
            now = adapter.health().healthy();
        } catch (RuntimeException e) {
            now = false;
        }
        healthy = now;
        return now;
    }

    /** Records how a batch on it ended: whether every key of it failed, as every batch does while its master is down. */
    synchronized void batchEnded(boolean everyKeyFailed) {
        failing = everyKeyFailed;
        if (!everyKeyFailed) {
            notifyAll();
        }
    }

    /** Waits while the last batch on it failed for every key, at most {@code nanos}; a batch that does not ends the wait. */
    synchronized void pauseWhileFailing(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; failing && left > 0; left = deadline - System.nanoTime()) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }
}
