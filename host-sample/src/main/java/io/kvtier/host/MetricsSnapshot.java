package io.kvtier.host;

import com.codahale.metrics.Counting;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import java.util.LinkedHashMap;
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

    /** Each timer of the instance, by its name after the prefix: its p50 and p99 in ms, over Dropwizard's decaying sample. */
    public static Map<String, Map<String, Double>> timerQuantilesMs(MetricRegistry registry, String prefix) {
        Map<String, Map<String, Double>> timers = new TreeMap<>();
        registry.getTimers((name, metric) -> name.startsWith(prefix + ".")).forEach((name, timer) -> {
            Snapshot snapshot = timer.getSnapshot();
            Map<String, Double> quantiles = new LinkedHashMap<>();
            quantiles.put("p50", Math.round(snapshot.getMedian() / 1e3) / 1e3);
            quantiles.put("p99", Math.round(snapshot.get99thPercentile() / 1e3) / 1e3);
            timers.put(name.substring(prefix.length() + 1), quantiles);
        });
        return timers;
    }
}
