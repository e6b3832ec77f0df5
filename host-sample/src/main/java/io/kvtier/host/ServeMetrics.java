package io.kvtier.host;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.Instances;

/**
 * serve's own gauge beside the adapters' metrics: {@code kvtier.serve.<instance>.healthy}, 1 or 0
 * from {@code health()} at each read, so that every instance has a health series to alert on,
 * also one whose adapter registers no metrics.
 */
final class ServeMetrics {
    private ServeMetrics() {}

    static void register(MetricRegistry metrics, Iterable<Instances.Instance> instances) {
        for (Instances.Instance instance : instances) {
            metrics.register(MetricRegistry.name("kvtier", "serve", instance.name(), "healthy"),
                    (Gauge<Integer>) () -> HealthEndpoint.read(instance).healthy() ? 1 : 0);
        }
    }
}
