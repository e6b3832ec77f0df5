package io.kvtier.host.soak;

import io.kvtier.host.FailurePacer;
import io.kvtier.spi.L2Adapter;
import java.util.EnumMap;
import java.util.Map;

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
    final AfterFault afterFault = new AfterFault();
    /** The keys sealed by the harness, claimed for good (see {@link KeyBook#seal}); empty until then. */
    volatile int[] sealed = new int[0];
    /** What the end of the soak found of the sealed keys. */
    volatile Sealed sealedAtEnd = Sealed.NONE;
    /** The last health read from health(); the health poll writes it, the metrics endpoint reads it. */
    volatile boolean healthy = true;
    /** Paces the workers while its batches fail whole, as with its master down. */
    final FailurePacer pacer = new FailurePacer();

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
}
