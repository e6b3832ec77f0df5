package io.kvtier.host.soak;

import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One line per instance per interval on stderr: the rates since the last line, the errors so far
 * by cause, and the open fault window if any.
 */
final class SoakProgress {
    private final Iterable<Target> targets;
    private final PrintWriter err;
    private final long startNanos;
    private final Map<Target, Map<Op, OpStats.Snapshot>> previous = new HashMap<>();
    private long previousNanos;

    SoakProgress(Iterable<Target> targets, PrintWriter err, long startNanos) {
        this.targets = targets;
        this.err = err;
        this.startNanos = startNanos;
        this.previousNanos = startNanos;
    }

    synchronized void print() {
        long now = System.nanoTime();
        double seconds = (now - previousNanos) / 1e9;
        for (Target target : targets) {
            Map<Op, OpStats.Snapshot> current = new EnumMap<>(Op.class);
            Map<String, Long> errors = new TreeMap<>();
            StringBuilder line = new StringBuilder(String.format("[soak %.0fs] %s", (now - startNanos) / 1e9, target.name));
            for (Op op : Op.values()) {
                OpStats.Snapshot s = target.stats(op).snapshot();
                current.put(op, s);
                OpStats.Snapshot before = previous.getOrDefault(target, Map.of()).get(op);
                long batches = s.batches() - (before == null ? 0 : before.batches());
                long bytes = s.bytes() - (before == null ? 0 : before.bytes());
                line.append(String.format("  %s %.0f ops/s", op.label(), batches / seconds));
                if (op == Op.STORE || op == Op.LOAD) {
                    line.append(String.format(" %.1f MB/s", bytes / seconds / 1e6));
                }
                s.errorsByKind().forEach((cause, n) -> errors.merge(cause, n, Long::sum));
            }
            previous.put(target, current);
            line.append("  errors ").append(errors.isEmpty() ? "0" : errors.toString());
            line.append(String.format("  wait max %d ms  waiting %d ms", target.waits.takeIntervalLongestNanos() / 1_000_000,
                    target.waits.oldestInFlightNanos(now) / 1_000_000));
            OpStats.Snapshot loads = current.get(Op.LOAD);
            if (loads.corrupted() > 0) {
                // So far, not per interval: the second a count first grows places the corruption in time.
                line.append(String.format("  corrupted %d (stale %d, foreign %d)", loads.corrupted(), loads.stale(),
                        loads.foreign()));
            }
            if (!target.healthy) {
                line.append("  UNHEALTHY");
            }
            target.faults.windows().stream().filter(FaultWindows.Window::open).findFirst().ifPresent(w -> line.append(
                    String.format("  FAULT WINDOW open since %.1fs (%s)", (w.startNanos() - startNanos) / 1e9, w.reason())));
            err.println(line);
        }
        previousNanos = now;
    }
}
