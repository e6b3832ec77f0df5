package io.kvtier.host.soak;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import java.util.function.ToLongFunction;

/**
 * The soak's own figures as gauges beside the adapters' metrics, under {@code kvtier.soak.<instance>}:
 * {@code healthy} (1 or 0, from the last health() poll), {@code fault_window_open}, {@code fault_windows},
 * per operation {@code ok}, {@code missing} and {@code errors}, for lookups, loads and deletes {@code lost},
 * {@code evicted}, {@code missing_after_fault} and {@code phantom}, for stores and loads {@code bytes}, and for loads
 * {@code verified} and {@code corrupted}.
 */
final class SoakMetrics {
    private SoakMetrics() {}

    static void register(MetricRegistry metrics, Iterable<Target> targets) {
        for (Target target : targets) {
            String prefix = MetricRegistry.name("kvtier", "soak", target.name);
            gauge(metrics, MetricRegistry.name(prefix, "healthy"), () -> target.healthy ? 1 : 0);
            gauge(metrics, MetricRegistry.name(prefix, "fault_window_open"), () -> target.faults.isOpen() ? 1 : 0);
            gauge(metrics, MetricRegistry.name(prefix, "fault_windows"), () -> target.faults.windows().size());
            for (Op op : Op.values()) {
                figure(metrics, target, op, "ok", OpStats.Snapshot::ok);
                figure(metrics, target, op, "missing", OpStats.Snapshot::missing);
                figure(metrics, target, op, "errors", OpStats.Snapshot::errors);
                if (op != Op.STORE) { // a store expects nothing of the key's past
                    figure(metrics, target, op, "lost", OpStats.Snapshot::lost);
                    figure(metrics, target, op, "evicted", OpStats.Snapshot::evicted);
                    figure(metrics, target, op, "missing_after_fault", OpStats.Snapshot::missingAfterFault);
                    figure(metrics, target, op, "phantom", OpStats.Snapshot::phantom);
                }
            }
            figure(metrics, target, Op.STORE, "bytes", OpStats.Snapshot::bytes);
            figure(metrics, target, Op.LOAD, "bytes", OpStats.Snapshot::bytes);
            figure(metrics, target, Op.LOAD, "verified", OpStats.Snapshot::verified);
            figure(metrics, target, Op.LOAD, "corrupted", OpStats.Snapshot::corrupted);
        }
    }

    private static void figure(MetricRegistry metrics, Target target, Op op, String name,
                               ToLongFunction<OpStats.Snapshot> value) {
        gauge(metrics, MetricRegistry.name("kvtier", "soak", target.name, op.label(), name),
                () -> value.applyAsLong(target.stats(op).snapshot()));
    }

    private static void gauge(MetricRegistry metrics, String name, Gauge<Number> gauge) {
        metrics.register(name, gauge);
    }
}
