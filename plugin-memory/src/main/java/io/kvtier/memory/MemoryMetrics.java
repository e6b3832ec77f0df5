package io.kvtier.memory;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.kvtier.spi.AdapterContext;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A memory instance's Dropwizard metrics, under its prefix: timers {@code store}, {@code lookup},
 * {@code load} and {@code delete}; counters {@code hits} and {@code misses} (of lookups) and
 * {@code evictions} (objects); gauges {@code bytes_used} and {@code capacity_bytes}. Timers and
 * counters outlive the instance, so a host can report its totals; the gauges, whose source is
 * gone, are dropped on close.
 */
final class MemoryMetrics implements AutoCloseable {
    final Timer store;
    final Timer lookup;
    final Timer load;
    final Timer delete;
    final Counter hits;
    final Counter misses;
    final Counter evictions;
    private final MetricRegistry registry;
    private final List<String> gauges;

    MemoryMetrics(AdapterContext context, LongSupplier bytesUsed, long capacity) {
        registry = context.metrics();
        store = registry.timer(context.metricName("store"));
        lookup = registry.timer(context.metricName("lookup"));
        load = registry.timer(context.metricName("load"));
        delete = registry.timer(context.metricName("delete"));
        hits = registry.counter(context.metricName("hits"));
        misses = registry.counter(context.metricName("misses"));
        evictions = registry.counter(context.metricName("evictions"));
        String used = context.metricName("bytes_used");
        String room = context.metricName("capacity_bytes");
        // register(), not gauge(): a name taken by another instance must fail, not read that one.
        registry.register(used, (Gauge<Long>) bytesUsed::getAsLong);
        try {
            registry.register(room, (Gauge<Long>) () -> capacity);
        } catch (IllegalArgumentException e) {
            registry.remove(used);
            throw e;
        }
        gauges = List.of(used, room);
    }

    @Override
    public void close() {
        gauges.forEach(registry::remove);
    }
}
