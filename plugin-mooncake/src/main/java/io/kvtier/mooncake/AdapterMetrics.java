package io.kvtier.mooncake;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.kvtier.mooncake.health.NodeWatch;
import io.kvtier.mooncake.l1.L1Registration;
import io.kvtier.mooncake.lanes.Lane;
import io.kvtier.mooncake.lanes.WorkerLanes;
import io.kvtier.spi.AdapterContext;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One instance's Dropwizard metrics. Every name comes from {@link AdapterContext#metricName}, so
 * two instances of this type in one host never share a metric.
 *
 * <ul>
 *   <li>timers {@code store}, {@code lookup}, {@code load}, {@code delete}: submit to completion
 *       of each batch, queueing included, since that is what the caller waits for; and two of its
 *       stages per operation, {@code <operation>.lane_wait} (submit until a lane thread starts the
 *       batch) and {@code <operation>.native_call} (each call into the connector, retries apart),
 *       so that an operator can tell a busy lane from a slow store;</li>
 *   <li>meters {@code bytes_stored}, {@code bytes_loaded}: bytes of keys that succeeded;</li>
 *   <li>counters {@code hits} / {@code misses} (lookup outcomes) and {@code errors} (every key
 *       that ended in ERROR, and every key of a failed batch, for any op) and {@code retries}
 *       (keys a lookup or load asked for again after a transient code) and {@code capacity_retries}
 *       (keys stored again after Mooncake found no room for them) and {@code timeouts}
 *       (batches completed by batch_timeout_ms);</li>
 *   <li>gauges {@code lane.<pool>.queue_depth}, {@code lane.abandoned_calls} (native calls running
 *       on given-up lane threads), {@code l1.registered_bytes}, {@code segment.size_bytes} (the
 *       segment this instance contributes to the cluster, 0 for a client without one) and
 *       {@code healthy} (1 while the master answers the health probe, else 0);
 *       {@code node.<host_port>.suspect} comes from {@link NodeWatch}.</li>
 * </ul>
 */
public final class AdapterMetrics {
    final Timer store;
    final Timer lookup;
    final Timer load;
    final Timer delete;
    private final Map<Lane, Timer> laneWaits = new EnumMap<>(Lane.class);
    private final Map<Lane, Timer> nativeCalls = new EnumMap<>(Lane.class);
    public final Meter bytesStored;
    public final Meter bytesLoaded;
    public final Counter hits;
    public final Counter misses;
    public final Counter errors;
    public final Counter retries;
    public final Counter capacityRetries;
    public final Counter timeouts;

    private final AdapterContext context;
    private final MetricRegistry registry;

    AdapterMetrics(AdapterContext context) {
        this.context = context;
        this.registry = context.metrics();
        store = registry.timer(context.metricName("store"));
        lookup = registry.timer(context.metricName("lookup"));
        load = registry.timer(context.metricName("load"));
        delete = registry.timer(context.metricName("delete"));
        bytesStored = registry.meter(context.metricName("bytes_stored"));
        bytesLoaded = registry.meter(context.metricName("bytes_loaded"));
        hits = registry.counter(context.metricName("hits"));
        misses = registry.counter(context.metricName("misses"));
        errors = registry.counter(context.metricName("errors"));
        retries = registry.counter(context.metricName("retries"));
        capacityRetries = registry.counter(context.metricName("capacity_retries"));
        timeouts = registry.counter(context.metricName("timeouts"));
        for (Lane lane : Lane.values()) {
            laneWaits.put(lane, registry.timer(context.metricName(lane.operation(), "lane_wait")));
            nativeCalls.put(lane, registry.timer(context.metricName(lane.operation(), "native_call")));
        }
    }

    /** From a batch's submission until a lane thread starts it. */
    public Timer laneWait(Lane lane) {
        return laneWaits.get(lane);
    }

    /** One call into the connector for a batch of {@code lane}'s operation. */
    public Timer nativeCall(Lane lane) {
        return nativeCalls.get(lane);
    }

    /**
     * Publishes the gauges, the last step of creating an instance but for its probes: they read its
     * lanes, registration and health.
     *
     * @param segmentBytes the bytes of the segment this instance contributes; how much of it is used
     *     only the master knows, and its RPCs do not tell a client
     * @throws IllegalArgumentException when another instance holds these names; none is left registered
     */
    Gauges registerGauges(WorkerLanes lanes, L1Registration registration, long segmentBytes, BooleanSupplier healthy) {
        Gauges gauges = new Gauges(registry);
        try {
            for (String pool : lanes.poolNames()) {
                gauges.add(context.metricName("lane", pool, "queue_depth"), () -> lanes.queueDepth(pool));
            }
            gauges.add(context.metricName("lane", "abandoned_calls"), lanes::abandonedCalls);
            gauges.add(context.metricName("l1", "registered_bytes"), registration::registeredBytes);
            gauges.add(context.metricName("segment", "size_bytes"), () -> segmentBytes);
            gauges.add(context.metricName("healthy"), () -> healthy.getAsBoolean() ? 1 : 0);
            return gauges;
        } catch (IllegalArgumentException e) {
            gauges.close();
            throw new IllegalArgumentException("mooncake_store instance '" + context.instanceName()
                    + "': its metric names are already taken (" + e.getMessage() + "); metric prefixes must be unique", e);
        }
    }

    /**
     * An instance's published gauges. Closing drops them, whose sources are gone after close;
     * timers, meters and counters stay, so a host can still report an instance's totals.
     */
    static final class Gauges implements AutoCloseable {
        private final MetricRegistry registry;
        private final List<String> names = new ArrayList<>();

        private Gauges(MetricRegistry registry) {
            this.registry = registry;
        }

        /** register(), not gauge(): a name clash must fail loudly, not silently read another instance. */
        private void add(String name, Gauge<?> gauge) {
            registry.register(name, gauge);
            names.add(name);
        }

        @Override
        public void close() {
            names.forEach(registry::remove);
            names.clear();
        }
    }
}
