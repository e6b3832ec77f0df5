package io.kvtier.mooncake;

import io.kvtier.mooncake.NativeAbi.MooncakeNative;
import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.L1MemoryDesc;
import java.util.Optional;

/**
 * Wires one instance in its own child injector: config, context, native client, L1
 * registration, lanes, metrics and the adapter. Each acquired resource registers its undo action
 * with {@link CreationCleanup}, so a failure half-way releases what came before it.
 */
final class MooncakeStoreModule extends AbstractModule {
    private final MooncakeStoreConfig config;
    private final AdapterContext context;
    private final Optional<L1MemoryDesc> registrationRegion;
    private final CreationCleanup cleanup;

    /** @param registrationRegion the L1 region to register, as decided by {@link RdmaL1Rule} */
    MooncakeStoreModule(MooncakeStoreConfig config, AdapterContext context, Optional<L1MemoryDesc> registrationRegion,
                        CreationCleanup cleanup) {
        this.config = config;
        this.context = context;
        this.registrationRegion = registrationRegion;
        this.cleanup = cleanup;
    }

    @Override
    protected void configure() {
        bind(MooncakeStoreConfig.class).toInstance(config);
        bind(AdapterContext.class).toInstance(context);
        bind(MooncakeStoreAdapter.class).in(Singleton.class);
    }

    @Provides
    @Singleton
    MooncakeClient client(MooncakeNative lib) {
        MooncakeClient client = MooncakeClient.create(lib, config.setupConfig());
        cleanup.onFailure(client::destroy);
        return client;
    }

    @Provides
    @Singleton
    L1Registration registration(MooncakeClient client) {
        if (registrationRegion.isEmpty()) {
            return L1Registration.DISABLED;
        }
        L1MemoryDesc region = registrationRegion.get();
        L1Registration registration = L1Registration.register(client, region.address(), region.size());
        cleanup.onFailure(registration::unregisterAll);
        return registration;
    }

    @Provides
    @Singleton
    WorkerLanes lanes() {
        WorkerLanes lanes = new WorkerLanes(context.instanceName(), config.numWorkers(), config.perOpWorkers());
        cleanup.onFailure(lanes::shutdown);
        return lanes;
    }

    @Provides
    @Singleton
    AdapterMetrics metrics(WorkerLanes lanes, L1Registration registration) {
        AdapterMetrics metrics = new AdapterMetrics(context, lanes, registration);
        cleanup.onFailure(metrics::removeGauges);
        return metrics;
    }
}
