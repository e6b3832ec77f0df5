package io.kvtier.host.soak;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.L2Adapter;
import java.util.List;

/** The soak's gauges of one instance, registered as a soak registers them: for the metrics page's test, outside this package. */
public final class SoakGauges {
    private SoakGauges() {}

    public static void register(MetricRegistry metrics, String instance, String type, L2Adapter adapter) {
        SoakMetrics.register(metrics, List.of(new Target(instance, type, 0, adapter, 8, 0)));
    }
}
