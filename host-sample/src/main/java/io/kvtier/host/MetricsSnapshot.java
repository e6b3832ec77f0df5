package io.kvtier.host;

import com.codahale.metrics.Counting;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import java.util.Map;
import java.util.TreeMap;

/** The current values of one instance's metrics: counts for counters, meters and timers, values for gauges. */
public final class MetricsSnapshot {
    private MetricsSnapshot() {}

    public static Map<String, Object> of(MetricRegistry registry, String prefix) {
        Map<String, Object> values = new TreeMap<>();
        for (Map.Entry<String, Metric> entry : registry.getMetrics().entrySet()) {
            if (entry.getKey().startsWith(prefix + ".")) {
                String name = entry.getKey().substring(prefix.length() + 1);
                if (entry.getValue() instanceof Counting counting) {
                    values.put(name, counting.getCount());
                    if (entry.getValue() instanceof Timer timer) {
                        // The longest batch of the reservoir's recent past (Dropwizard's decaying sample).
                        values.put(name + ".max_ms", timer.getSnapshot().getMax() / 1_000_000.0);
                    }
                } else if (entry.getValue() instanceof Gauge<?> gauge) {
                    values.put(name, gauge.getValue());
                }
            }
        }
        return values;
    }

    /** The instance's timers, by their names after the prefix. */
    public static Map<String, Timer> timers(MetricRegistry registry, String prefix) {
        Map<String, Timer> timers = new TreeMap<>();
        registry.getTimers((name, metric) -> name.startsWith(prefix + "."))
                .forEach((name, timer) -> timers.put(name.substring(prefix.length() + 1), timer));
        return timers;
    }
}
