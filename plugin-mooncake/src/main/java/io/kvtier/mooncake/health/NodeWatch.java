package io.kvtier.mooncake.health;

import com.codahale.metrics.Gauge;
import io.kvtier.spi.AdapterContext;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps an instance's {@link StorageNodes} current: a tick on the instance's health scheduler
 * applies the stall rule every {@link Timings#nodeSweep}, and a probe thread of its own probes the
 * suspect nodes every {@link Timings#nodeProbeInterval} (a probe of a silent node blocks that
 * thread only, as long as Mooncake's transfer does). Logs each change and keeps a gauge
 * {@code node.<host_port>.suspect} per node.
 */
public final class NodeWatch implements StorageNodes.Listener {
    private static final Logger LOG = Logger.getLogger(NodeWatch.class.getName());

    private final String instanceName;
    private final AdapterContext context;
    private final ScheduledExecutorService scheduler;
    private final Timings timings;
    private final Thread prober;
    private final Set<String> gauges = ConcurrentHashMap.newKeySet();
    private volatile StorageNodes nodes;
    private volatile ScheduledFuture<?> sweeping;
    private volatile boolean stopped;

    public NodeWatch(AdapterContext context, ScheduledExecutorService scheduler, Timings timings) {
        this.instanceName = context.instanceName();
        this.context = context;
        this.scheduler = scheduler;
        this.timings = timings;
        this.prober = new Thread(this::probeLoop, "kvtier-" + instanceName + "-nodes-probe");
        prober.setDaemon(true);
    }

    public void start(StorageNodes watched) {
        this.nodes = watched;
        prober.start();
        long tick = timings.nodeSweep().toMillis();
        sweeping = scheduler.scheduleWithFixedDelay(this::sweep, tick, tick, TimeUnit.MILLISECONDS);
    }

    private void sweep() {
        try {
            nodes.sweep();
            nodes.states().keySet().forEach(this::gauge);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "mooncake_store adapter ''" + instanceName + "'': reading the nodes' reads failed", e);
        }
    }

    private void probeLoop() {
        while (!stopped) {
            try {
                nodes.probe();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "mooncake_store adapter ''" + instanceName + "'': probing the suspect nodes failed", e);
            }
            try {
                Thread.sleep(timings.nodeProbeInterval().toMillis());
            } catch (InterruptedException e) {
                return; // stop() wakes us
            }
        }
    }

    @Override
    public void changed(String node, StorageNodes.State state, String why) {
        gauge(node);
        if (state == StorageNodes.State.SUSPECT) {
            LOG.log(Level.WARNING, "mooncake_store adapter ''{0}'': storage node {1} is suspect, reads skip it: {2}",
                    new Object[] {instanceName, node, why});
        } else {
            LOG.log(Level.INFO, "mooncake_store adapter ''{0}'': storage node {1} answers again: {2}",
                    new Object[] {instanceName, node, why});
        }
    }

    /** A gauge per node met: 1 while it is suspect. */
    private void gauge(String node) {
        if (gauges.add(node)) {
            context.metrics().register(gaugeName(node),
                    (Gauge<Integer>) () -> nodes.states().get(node) == StorageNodes.State.SUSPECT ? 1 : 0);
        }
    }

    /** {@code node.<host_port>.suspect}: dots and colons of an endpoint would read as name separators. */
    private String gaugeName(String node) {
        return context.metricName("node", node.replaceAll("[^A-Za-z0-9_-]", "_"), "suspect");
    }

    /**
     * Stops sweeping and probing, drops the gauges and waits, at most {@code timeout}, for a running probe.
     *
     * @return whether the probe thread ended, so that the native client may be freed
     */
    public boolean stop(Duration timeout) throws InterruptedException {
        stopped = true;
        if (sweeping != null) {
            sweeping.cancel(false);
        }
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
