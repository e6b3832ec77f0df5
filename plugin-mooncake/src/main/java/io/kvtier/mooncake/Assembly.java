package io.kvtier.mooncake;

import io.kvtier.mooncake.batch.CapacityRetry;
import io.kvtier.mooncake.batch.NativeBatches;
import io.kvtier.mooncake.batch.NativeResults;
import io.kvtier.mooncake.batch.TransientRetry;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import io.kvtier.mooncake.config.MooncakeStoreConfig;
import io.kvtier.mooncake.deadline.BatchDeadline;
import io.kvtier.mooncake.deadline.ExpiryQueue;
import io.kvtier.mooncake.health.MasterHealth;
import io.kvtier.mooncake.health.NodeWatch;
import io.kvtier.mooncake.health.StorageNodes;
import io.kvtier.mooncake.health.Timings;
import io.kvtier.mooncake.l1.L1Registration;
import io.kvtier.mooncake.lanes.LaneTask;
import io.kvtier.mooncake.lanes.WorkerLanes;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.toolkit.KeyLocks;
import io.kvtier.toolkit.UsageTracker;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one owner of what a {@code mooncake_store} instance acquires. {@link #create} makes its parts
 * in order, each after what it uses, and notes how to release each one as it goes. The adapter,
 * made last, closes first: it stops taking batches, then calls {@link #release}, which releases
 * the rest in reverse. A creation that fails releases, newest first, what it had made, so it leaks
 * nothing, and its exception reaches the host as it was thrown.
 *
 * <p>The native client and its L1 registration are freed only once every native call and probe
 * has returned: freeing the client under a running call could crash the JVM, so when one has not
 * returned in time, both are left in place, with a warning.
 */
final class Assembly {
    private static final Logger LOG = Logger.getLogger(Assembly.class.getName());

    /**
     * Mooncake evicts on its own and tells no client, so the usage tracker is bounded: 2^17 keys,
     * some 150 bytes of heap each, track 128 GiB of objects of 1 MiB; an instance that holds more
     * counts its most recent keys' bytes.
     */
    static final int TRACKED_KEYS = 1 << 17;

    /** A release step; what it throws is added to a failed creation's exception, or logged by close(). */
    private interface Step {
        void run() throws Exception;
    }

    private final String name;
    private final Timings timings;
    private final Deque<Step> steps = new ArrayDeque<>();
    /** Whether every native call and probe has returned, so that the client may be freed; set while releasing. */
    private boolean quiet = true;
    private WorkerLanes lanes;

    private Assembly(String name, Timings timings) {
        this.name = name;
        this.timings = timings;
    }

    /**
     * Makes an instance over {@code lib}, registering {@code region} (RDMA) when given.
     *
     * @throws IllegalStateException when the native client or the registration cannot be made
     * @throws IllegalArgumentException when another instance holds this one's metric names
     */
    static MooncakeStoreAdapter create(MooncakeNative lib, Optional<L1MemoryDesc> region, MooncakeStoreConfig config,
                                       AdapterContext context, Timings timings) {
        Assembly assembly = new Assembly(context.instanceName(), timings);
        try {
            return assembly.assemble(lib, region, config, context);
        } catch (RuntimeException | Error e) {
            assembly.releaseAll(e::addSuppressed);
            throw e;
        }
    }

    private MooncakeStoreAdapter assemble(MooncakeNative lib, Optional<L1MemoryDesc> region, MooncakeStoreConfig config,
                                          AdapterContext context) {
        // Timers, meters and counters outlive the instance, so a host can report its totals; its gauges go last.
        AdapterMetrics metrics = new AdapterMetrics(context);
        onRelease(metrics::close);
        // Up until every batch is complete: a batch still running when close() began gets its deadline.
        ExpiryQueue expiries = new ExpiryQueue(name, config.bounds().batchTimeout());
        onRelease(expiries::close);
        // A batch whose native call outlived the drain would otherwise never complete.
        Set<LaneTask> inFlight = ConcurrentHashMap.newKeySet();
        onRelease(() -> inFlight.forEach(task -> task.fail(MooncakeStoreAdapter.closedError(name))));

        MooncakeClient client = MooncakeClient.open(lib, config.setupConfig(), config.rpcTimeout(), config.nativeClients());
        onRelease(() -> {
            if (quiet) {
                client.close();
            } else {
                LOG.log(Level.WARNING, "mooncake_store adapter ''{0}'': native calls still running after {1}; "
                        + "leaving the Mooncake client and its L1 registration in place", new Object[] {name, timings.drain()});
            }
        });
        client.uncheckedObjects(config.uncheckedObjects());
        L1Registration registration = region.map(r -> L1Registration.register(client, r.address(), r.size()))
                .orElse(L1Registration.DISABLED);
        onRelease(() -> {
            if (quiet) {
                registration.close();
            }
        });
        // After the probes have stopped; a tick still running finds the client destroyed (its node calls wait for close).
        ScheduledExecutorService healthScheduler = MasterHealth.scheduler(name);
        onRelease(healthScheduler::shutdownNow);
        lanes = new WorkerLanes(name, config.numWorkers(), config.perOpWorkers(), config.bounds().maxAbandonedCalls());
        onRelease(() -> {
            // The adapter failed the queued batches as it closed; a failed creation queued none.
            lanes.shutdown();
            quiet &= drained(lanes);
        });

        UsageTracker usage = new UsageTracker(0, TRACKED_KEYS);
        KeyLocks locks = new KeyLocks();
        MasterHealth health = new MasterHealth("kvtier-" + name + "-health-", config.setupConfig().get("master_server_addr"),
                client::askMaster, timings, healthScheduler);
        NodeWatch nodeWatch = new NodeWatch(context, healthScheduler, timings);
        StorageNodes storageNodes = new StorageNodes(StorageNodes.Connector.over(client),
                config.bounds().suspectAfter().toMillis(), timings, System::nanoTime, nodeWatch);
        NativeBatches batches = new NativeBatches(client, config, new TransientRetry(health, metrics),
                new CapacityRetry(metrics), new NativeResults(usage, locks, metrics), registration, storageNodes);
        BatchDeadline deadline = new BatchDeadline(name, lanes, metrics, expiries);
        MooncakeStoreAdapter adapter = new MooncakeStoreAdapter(name, config, registration, lanes, health, storageNodes,
                metrics, usage, locks, batches, deadline, inFlight, this);

        // Last, as they start threads or publish what other instances could clash with.
        metrics.registerGauges(lanes, registration, health::healthy);
        health.start(adapter::healthChanged);
        onRelease(() -> quiet &= stopped(() -> health.stop(timings.probeStop(config.rpcTimeout()))));
        nodeWatch.start(storageNodes);
        onRelease(() -> quiet &= stopped(() -> nodeWatch.stop(timings.nodeProbeStop(config.bounds().batchTimeout()))));
        return adapter;
    }

    private void onRelease(Step release) {
        steps.push(release);
    }

    /**
     * Releases everything, newest first, once the adapter has stopped taking batches: right here,
     * or on a thread of its own when called from one of the instance's lanes, which cannot wait
     * for itself.
     */
    void release() {
        if (lanes.isCurrentThreadWorker()) {
            Thread finisher = new Thread(this::releaseOnClose, "kvtier-" + name + "-close");
            finisher.setDaemon(true);
            finisher.start();
        } else {
            releaseOnClose();
        }
    }

    private void releaseOnClose() {
        releaseAll(e -> LOG.log(Level.WARNING, "mooncake_store adapter '" + name + "': releasing it failed", e));
    }

    /** Runs every step, newest first, handing what one throws to {@code failed}, so that the later ones still run. */
    private synchronized void releaseAll(Consumer<Exception> failed) {
        while (!steps.isEmpty()) {
            try {
                steps.pop().run();
            } catch (Exception e) {
                failed.accept(e);
            }
        }
    }

    /** Whether the probe returned from the native client within its bound, so that the client may be freed. */
    private static boolean stopped(InterruptibleStop stop) {
        try {
            return stop.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private interface InterruptibleStop {
        boolean stop() throws InterruptedException;
    }

    /**
     * Waits for the lanes' native calls to return, through interrupts: giving up early would leak
     * the native client for nothing.
     */
    private boolean drained(WorkerLanes lanes) {
        long deadline = System.nanoTime() + timings.drain().toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return lanes.awaitTermination(deadline);
                } catch (InterruptedException e) {
                    interrupted = true;
                    if (System.nanoTime() - deadline >= 0) {
                        return false;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
