package io.kvtier.spi;

import com.codahale.metrics.MetricRegistry;
import java.util.Optional;

/**
 * What the host hands a provider when it creates one instance.
 *
 * @param instanceName the declared (or defaulted) instance name
 * @param l1           the host's L1 region, when it has exactly one
 * @param metrics      the host's registry
 * @param metricPrefix a prefix unique to this instance; every metric name starts with it
 */
public record AdapterContext(String instanceName, Optional<L1MemoryDesc> l1, MetricRegistry metrics,
                             String metricPrefix) {

    public String metricName(String... names) {
        return MetricRegistry.name(metricPrefix, names);
    }
}
