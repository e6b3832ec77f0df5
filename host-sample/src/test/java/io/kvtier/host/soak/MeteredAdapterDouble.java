package io.kvtier.host.soak;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;

/** Test double: an honest tier that keeps a metric under its instance prefix, as real adapters do. */
final class MeteredAdapterDouble extends InMemoryAdapterDouble {
    private final Counter objectsLoaded;

    MeteredAdapterDouble(MetricRegistry metrics, String metricPrefix) {
        objectsLoaded = metrics.counter(MetricRegistry.name(metricPrefix, "objects_loaded"));
    }

    @Override
    protected void loaded(ObjectKey key, ByteBuffer slice) {
        objectsLoaded.inc();
    }
}
