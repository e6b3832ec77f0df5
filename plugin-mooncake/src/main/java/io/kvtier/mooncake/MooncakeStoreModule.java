package io.kvtier.mooncake;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import com.google.inject.Singleton;
import io.kvtier.spi.AdapterContext;
import io.kvtier.toolkit.KeyLocks;
import io.kvtier.toolkit.UsageTracker;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Wires one instance in an injector of its own, as Trino's MemoryModule wires a catalog: the
 * config, the host's context and the timings; the native client and L1 registration, which
 * {@link MooncakeStoreProvider} acquired before (Guice would wrap their failures, whose own
 * message and type the host must see); and, one of each, the lanes, the health probe, the
 * metrics, the usage, the locks, what runs and translates batches, and the adapter. Nothing here
 * calls native code or can fail on a declaration: the lanes and the metrics are added to
 * {@code acquired}, so a creation that fails later releases them too.
 */
final class MooncakeStoreModule extends AbstractModule {
    private final MooncakeStoreConfig config;
    private final AdapterContext context;
    private final Timings timings;
    private final MooncakeClient client;
    private final L1Registration registration;
    private final Acquired acquired;

    MooncakeStoreModule(MooncakeStoreConfig config, AdapterContext context, Timings timings, MooncakeClient client,
                        L1Registration registration, Acquired acquired) {
        this.config = config;
        this.context = context;
        this.timings = timings;
        this.client = client;
        this.registration = registration;
        this.acquired = acquired;
    }

    @Override
    protected void configure() {
        bind(MooncakeStoreConfig.class).toInstance(config);
        bind(AdapterContext.class).toInstance(context);
        bind(Timings.class).toInstance(timings);
        bind(MooncakeClient.class).toInstance(client);
        bind(L1Registration.class).toInstance(registration);
        bind(KeyLocks.class).in(Scopes.SINGLETON);
        bind(NativeResults.class).in(Scopes.SINGLETON);
        bind(TransientRetry.class).in(Scopes.SINGLETON);
        bind(CapacityRetry.class).in(Scopes.SINGLETON);
        bind(NativeBatches.class).in(Scopes.SINGLETON);
        bind(ClientRelease.class).in(Scopes.SINGLETON);
        bind(MooncakeStoreAdapter.class).in(Scopes.SINGLETON);
    }

    @Provides
    @Singleton
    WorkerLanes lanes() {
        WorkerLanes lanes = new WorkerLanes(context.instanceName(), config.numWorkers(), config.perOpWorkers(),
                config.bounds().maxAbandonedCalls());
        acquired.add(lanes::shutdown);
        return lanes;
    }

    /** The one thread that judges the instance's health: the master's probe and the storage nodes' reads. */
    @Provides
    @Singleton
    ScheduledExecutorService healthScheduler() {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "kvtier-" + context.instanceName() + "-health-watch");
            thread.setDaemon(true);
            return thread;
        });
        acquired.add(scheduler::shutdownNow);
        return scheduler;
    }

    /** Not started: the adapter starts it once everything else exists. */
    @Provides
    @Singleton
    MasterHealth health(ScheduledExecutorService healthScheduler) {
        return new MasterHealth("kvtier-" + context.instanceName() + "-health-", client::askMaster, timings,
                healthScheduler);
    }

    /** Gauges come later, from the adapter's start: only they can clash with another instance's. */
    @Provides
    @Singleton
    AdapterMetrics metrics() {
        return acquired.add(new AdapterMetrics(context));
    }

    @Provides
    @Singleton
    BatchDeadline deadline(WorkerLanes lanes, AdapterMetrics metrics) {
        return acquired.add(new BatchDeadline(context.instanceName(), config.bounds().batchTimeout(), lanes, metrics));
    }

    /** Not started: the adapter starts it once everything else exists. */
    @Provides
    @Singleton
    NodeWatch nodeWatch(ScheduledExecutorService healthScheduler) {
        return new NodeWatch(context, healthScheduler, timings);
    }

    @Provides
    @Singleton
    StorageNodes storageNodes(NodeWatch watch) {
        return new StorageNodes(StorageNodes.Connector.over(client), config.bounds().suspectAfter().toMillis(), timings, System::nanoTime, watch);
    }

    /**
     * Mooncake evicts on its own and tells no client, so the tracker is bounded: 2^17 keys, some
     * 150 bytes of heap each, track 128 GiB of objects of 1 MiB; an instance that holds more
     * counts its most recent keys' bytes.
     */
    static final int TRACKED_KEYS = 1 << 17;

    @Provides
    @Singleton
    UsageTracker usage() {
        return new UsageTracker(0, TRACKED_KEYS);
    }
}
