package io.kvtier.mooncake;

import com.codahale.metrics.Gauge;
import io.kvtier.spi.AdapterContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The storage nodes the connector marked suspect (a read that failed to transfer, or ran past
 * {@code suspect_after_ms} while the node sent nothing for as long), seen from Java. A watch thread reads the connector's node table four
 * times per {@link #PROBE_INTERVAL} and keeps a gauge {@code node.<host_port>.suspect} per node; a
 * probe thread reads once from each suspect node every {@link #PROBE_INTERVAL}, which clears the
 * node when it succeeds. A probe of a silent node blocks the probe thread only, as long as
 * Mooncake's transfer does.
 */
final class SuspectNodes {
    static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = Logger.getLogger(SuspectNodes.class.getName());

    private final String instanceName;
    private final Supplier<Map<String, Boolean>> table;
    private final Predicate<String> probe;
    private final AdapterContext context;
    private final Thread prober;
    private final ScheduledExecutorService watch;
    private final Map<String, Boolean> lastSeen = new ConcurrentHashMap<>();
    private final Set<String> gauges = ConcurrentHashMap.newKeySet();
    private volatile boolean stopped;

    /**
     * @param table the connector's node table: endpoint to whether it is suspect
     * @param probe reads once from a node; true when it answered
     */
    SuspectNodes(AdapterContext context, Supplier<Map<String, Boolean>> table, Predicate<String> probe) {
        this.instanceName = context.instanceName();
        this.context = context;
        this.table = table;
        this.probe = probe;
        this.prober = new Thread(this::probeLoop, "kvtier-" + instanceName + "-nodes-probe");
        prober.setDaemon(true);
        this.watch = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "kvtier-" + instanceName + "-nodes-watch");
            thread.setDaemon(true);
            return thread;
        });
    }

    void start() {
        prober.start();
        long tick = PROBE_INTERVAL.toMillis() / 4;
        watch.scheduleWithFixedDelay(this::refresh, tick, tick, TimeUnit.MILLISECONDS);
    }

    private void refresh() {
        try {
            table.get().forEach(this::seen);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "mooncake_store adapter ''" + instanceName + "'': reading the node table failed", e);
        }
    }

    /** The suspect nodes now, from the connector's table. */
    List<String> suspects() {
        return table.get().entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    }

    private void probeLoop() {
        while (!stopped) {
            for (String node : suspects()) {
                try {
                    if (!stopped && probe.test(node)) {
                        seen(node, false);
                        LOG.log(Level.INFO, "mooncake_store adapter ''{0}'': storage node {1} answers again",
                                new Object[] {instanceName, node});
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "mooncake_store adapter ''" + instanceName + "'': probing " + node + " failed", e);
                }
            }
            try {
                Thread.sleep(PROBE_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                return; // stop() wakes us
            }
        }
    }

    private void seen(String node, boolean suspect) {
        Boolean before = lastSeen.put(node, suspect);
        if (suspect && !Boolean.TRUE.equals(before)) {
            LOG.log(Level.WARNING, "mooncake_store adapter ''{0}'': storage node {1} is suspect: reads skip it",
                    new Object[] {instanceName, node});
        }
        if (gauges.add(node)) {
            context.metrics().register(gaugeName(node),
                    (Gauge<Integer>) () -> Boolean.TRUE.equals(lastSeen.get(node)) ? 1 : 0);
        }
    }

    /** {@code node.<host_port>.suspect}: dots and colons of an endpoint would read as name separators. */
    private String gaugeName(String node) {
        return context.metricName("node", node.replaceAll("[^A-Za-z0-9_-]", "_"), "suspect");
    }

    /**
     * Stops probing, drops the gauges and waits, at most {@code timeout}, for a running probe.
     *
     * @return whether the probe thread ended, so that the native client may be freed
     */
    boolean stop(Duration timeout) throws InterruptedException {
        stopped = true;
        watch.shutdownNow();
        watch.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
        prober.interrupt();
        if (prober.isAlive()) {
            prober.join(Math.max(1, timeout.toMillis()));
        }
        for (String node : gauges) {
            context.metrics().remove(gaugeName(node));
        }
        return !prober.isAlive();
    }
}
