package io.kvtier.mooncake;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.matcher.Matchers;
import com.google.inject.name.Named;
import io.kvtier.mooncake.AdapterMetrics.Gauges;
import io.kvtier.mooncake.batch.CapacityRetry;
import io.kvtier.mooncake.batch.NativeBatches;
import io.kvtier.mooncake.batch.NativeResults;
import io.kvtier.mooncake.batch.TransientRetry;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import io.kvtier.mooncake.binding.NativeLibraryLocator;
import io.kvtier.mooncake.config.MooncakeStoreConfig;
import io.kvtier.mooncake.deadline.BatchDeadline;
import io.kvtier.mooncake.deadline.ExpiryQueue;
import io.kvtier.mooncake.health.MasterHealth;
import io.kvtier.mooncake.health.MasterReachability;
import io.kvtier.mooncake.health.NodeWatch;
import io.kvtier.mooncake.health.StorageNodes;
import io.kvtier.mooncake.health.Timings;
import io.kvtier.mooncake.l1.L1Registration;
import io.kvtier.mooncake.l1.RdmaL1Rule;
import io.kvtier.mooncake.lanes.WorkerLanes;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.Health;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.toolkit.KeyLocks;
import io.kvtier.toolkit.UsageTracker;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One {@code mooncake_store} instance's parts, for an injector of its own: two instances share
 * nothing. Each {@code @Provides} method acquires at most one thing, so one that throws has
 * acquired nothing; {@link Lifecycle}, the provision listener, records what each made and
 * releases it. Tests replace a part through {@code Modules.override}. The methods are private:
 * Guice then calls them by reflection, where for others it generates a class at run time, which
 * made each creation some 30 ms slower (InstanceBenchmark).
 */
final class MooncakeStoreModule extends AbstractModule {
    private static final Logger LOG = Logger.getLogger(MooncakeStoreModule.class.getName());

    /**
     * Mooncake evicts on its own and tells no client, so the usage tracker is bounded: 2^17 keys,
     * some 150 bytes of heap each, track 128 GiB of objects of 1 MiB; an instance that holds more
     * counts its most recent keys' bytes.
     */
    static final int TRACKED_KEYS = 1 << 17;

    /** The master (and an HTTP metadata server) must accept connections; the test double has none. */
    @FunctionalInterface
    interface MasterCheck {
        void check(MooncakeStoreConfig config);
    }

    /**
     * What holds before the instance acquires anything, checked in this order: the connector loads
     * (its absence is the most likely deployment problem and must not hide behind a config error),
     * then the RDMA/L1 rule, then the master's reachability.
     *
     * @param region the L1 region to register (RDMA), else empty
     */
    record Checked(MooncakeNative lib, Optional<L1MemoryDesc> region) {}

    private final MooncakeStoreConfig config;
    private final AdapterContext context;
    private final Lifecycle lifecycle;

    /** @param config as {@link MooncakeStoreConfig#fromSettings} parsed it from the declaration */
    MooncakeStoreModule(MooncakeStoreConfig config, AdapterContext context, Lifecycle lifecycle) {
        this.config = config;
        this.context = context;
        this.lifecycle = lifecycle;
    }

    @Override
    protected void configure() {
        binder().requireExplicitBindings();
        binder().disableCircularProxies();
        bind(MooncakeStoreConfig.class).toInstance(config);
        bind(AdapterContext.class).toInstance(context);
        bind(Timings.class).toInstance(Timings.DEFAULTS);
        bind(MasterCheck.class).toInstance(checked -> MasterReachability.check(checked.setupConfig(), checked.rpcTimeout()));
        bind(Lifecycle.class).toInstance(lifecycle);
        bindListener(Matchers.any(), lifecycle);
    }

    /**
     * The instance, made last: Guice makes these parameters in their order, each after what it
     * takes, so this list is the creation order, and {@link Lifecycle} releases in reverse: the
     * probes stop, the gauges go, the lanes drain, the health scheduler stops, the registration and
     * the client are freed, what is still in flight fails, the expiry queue stops.
     */
    @Provides
    @Singleton
    private MooncakeStoreAdapter adapter(Checked checked, AdapterMetrics metrics, ExpiryQueue expiries, InFlight inFlight,
                                 MooncakeClient client, L1Registration registration, ScheduledExecutorService healthScheduler,
                                 WorkerLanes lanes, @Named("lanes") NativeCalls laneCalls, MasterHealth health,
                                 StorageNodes storageNodes, UsageTracker usage, KeyLocks locks, NativeBatches batches,
                                 BatchDeadline deadline, Gauges gauges, @Named("master probe") NativeCalls masterProbe,
                                 @Named("node probe") NativeCalls nodeProbe, MooncakeStoreConfig config,
                                 AdapterContext context, Lifecycle lifecycle) {
        return new MooncakeStoreAdapter(context.instanceName(), config, registration, lanes, health, storageNodes, metrics, usage, locks,
                batches, deadline, inFlight, lifecycle);
    }

    /** The connector, loaded on creation, not on discovery: {@code kvtier adapters} loads nothing. */
    @Provides
    @Singleton
    private MooncakeNative library() {
        return NativeLibraryLocator.fromEnvironment().load();
    }

    @Provides
    @Singleton
    private Checked checked(MooncakeNative lib, MasterCheck master, MooncakeStoreConfig config, AdapterContext context) {
        Optional<L1MemoryDesc> region = RdmaL1Rule.regionToRegister(config, context.l1());
        master.check(config);
        return new Checked(lib, region);
    }

    /** Timers, meters and counters outlive the instance, so a host can report its totals. */
    @Provides
    @Singleton
    private AdapterMetrics metrics(AdapterContext context) {
        return new AdapterMetrics(context);
    }

    /** Stopped once the lanes drained: a batch still running when close() began gets its deadline. */
    @Provides
    @Singleton
    private ExpiryQueue expiries(MooncakeStoreConfig config, AdapterContext context) {
        return new ExpiryQueue(context.instanceName(), config.bounds().batchTimeout());
    }

    @Provides
    @Singleton
    private InFlight inFlight(AdapterContext context) {
        return new InFlight(context.instanceName());
    }

    @Provides
    @Singleton
    private MooncakeClient client(Checked checked, MooncakeStoreConfig config) {
        MooncakeClient client = MooncakeClient.open(checked.lib(), config.setupConfig(), config.rpcTimeout(), config.nativeClients());
        try {
            client.uncheckedObjects(config.uncheckedObjects());
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        return client;
    }

    @Provides
    @Singleton
    private L1Registration registration(Checked checked, MooncakeClient client) {
        return checked.region().map(r -> L1Registration.register(client, r.address(), r.size())).orElse(L1Registration.DISABLED);
    }

    /** Stopped after the probes: a tick still running finds the client destroyed (its node calls wait for close). */
    @Provides
    @Singleton
    private ScheduledExecutorService healthScheduler(AdapterContext context) {
        return MasterHealth.scheduler(context.instanceName());
    }

    /** Its threads start with the first batch, and stop through {@link #laneCalls}. */
    @Provides
    @Singleton
    private WorkerLanes lanes(MooncakeStoreConfig config, AdapterContext context) {
        return new WorkerLanes(context.instanceName(), config.numWorkers(), config.perOpWorkers(), config.bounds().maxAbandonedCalls());
    }

    /** The adapter failed the queued batches as it closed; a failed creation queued none. */
    @Provides
    @Singleton
    @Named("lanes")
    private NativeCalls laneCalls(WorkerLanes lanes, Timings timings) {
        return new NativeCalls(timings.drain(), drain -> {
            lanes.shutdown();
            return drained(lanes, drain);
        });
    }

    @Provides
    @Singleton
    private UsageTracker usage() {
        return new UsageTracker(0, TRACKED_KEYS);
    }

    @Provides
    @Singleton
    private KeyLocks locks() {
        return new KeyLocks();
    }

    @Provides
    @Singleton
    private MasterHealth health(MooncakeClient client, Timings timings, ScheduledExecutorService healthScheduler,
                        MooncakeStoreConfig config, AdapterContext context) {
        return new MasterHealth("kvtier-" + context.instanceName() + "-health-", config.setupConfig().get("master_server_addr"),
                client::askMaster, timings, healthScheduler);
    }

    @Provides
    @Singleton
    private NodeWatch nodeWatch(Timings timings, ScheduledExecutorService healthScheduler, AdapterContext context) {
        return new NodeWatch(context, healthScheduler, timings);
    }

    @Provides
    @Singleton
    private StorageNodes storageNodes(MooncakeClient client, Timings timings, NodeWatch nodeWatch, MooncakeStoreConfig config) {
        return new StorageNodes(StorageNodes.Connector.over(client), config.bounds().suspectAfter().toMillis(), timings,
                System::nanoTime, nodeWatch);
    }

    @Provides
    @Singleton
    private NativeBatches batches(MooncakeClient client, MasterHealth health, AdapterMetrics metrics, UsageTracker usage,
                          KeyLocks locks, L1Registration registration, StorageNodes storageNodes, MooncakeStoreConfig config) {
        return new NativeBatches(client, config, new TransientRetry(health, metrics), new CapacityRetry(metrics),
                new NativeResults(usage, locks, metrics), registration, storageNodes, metrics);
    }

    @Provides
    @Singleton
    private BatchDeadline deadline(WorkerLanes lanes, AdapterMetrics metrics, ExpiryQueue expiries, AdapterContext context) {
        return new BatchDeadline(context.instanceName(), lanes, metrics, expiries);
    }

    /** Before the probes start: a name another instance holds fails creation before any thread does. */
    @Provides
    @Singleton
    private Gauges gauges(AdapterMetrics metrics, WorkerLanes lanes, L1Registration registration, MasterHealth health,
                          MooncakeStoreConfig config) {
        return metrics.registerGauges(lanes, registration, config.segmentBytes(), health::healthy);
    }

    @Provides
    @Singleton
    @Named("master probe")
    private NativeCalls masterProbe(MasterHealth health, UsageTracker usage, Timings timings, MooncakeStoreConfig config,
                            AdapterContext context) {
        health.start(now -> healthChanged(context.instanceName(), now, usage));
        return new NativeCalls(timings.probeStop(config.rpcTimeout()), health::stop);
    }

    @Provides
    @Singleton
    @Named("node probe")
    private NativeCalls nodeProbe(NodeWatch nodeWatch, StorageNodes storageNodes, Timings timings, MooncakeStoreConfig config) {
        nodeWatch.start(storageNodes);
        return new NativeCalls(timings.nodeProbeStop(config.bounds().batchTimeout()), nodeWatch::stop);
    }

    /** Hears the master probe's every change, on the health threads. */
    private static void healthChanged(String name, Health health, UsageTracker usage) {
        LOG.log(health.healthy() ? Level.INFO : Level.WARNING, "mooncake_store adapter ''{0}'' is {1}: {2}",
                new Object[] {name, health.healthy() ? "healthy again" : "unhealthy, failing batches fast", health.reason()});
        usage.reportHealth(health);
    }

    /**
     * Waits for the lanes' native calls to return, through interrupts: giving up early would leak
     * the native client for nothing.
     */
    private static boolean drained(WorkerLanes lanes, Duration drain) {
        long deadline = System.nanoTime() + drain.toNanos();
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
