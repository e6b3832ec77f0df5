package io.kvtier.mooncake;

import com.google.inject.AbstractModule;
import com.google.inject.TypeLiteral;
import io.kvtier.mooncake.NativeAbi.MooncakeNative;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.L1MemoryDesc;
import java.util.Optional;

/**
 * Wires one instance: its config, the host's context, the native binding and the L1 region to
 * register. The adapter acquires and releases what it owns itself.
 */
final class MooncakeStoreModule extends AbstractModule {
    private final MooncakeStoreConfig config;
    private final AdapterContext context;
    private final MooncakeNative lib;
    private final Optional<L1MemoryDesc> registrationRegion;

    /** @param registrationRegion the L1 region to register, as decided by {@link RdmaL1Rule} */
    MooncakeStoreModule(MooncakeStoreConfig config, AdapterContext context, MooncakeNative lib,
                        Optional<L1MemoryDesc> registrationRegion) {
        this.config = config;
        this.context = context;
        this.lib = lib;
        this.registrationRegion = registrationRegion;
    }

    @Override
    protected void configure() {
        bind(MooncakeStoreConfig.class).toInstance(config);
        bind(AdapterContext.class).toInstance(context);
        bind(MooncakeNative.class).toInstance(lib);
        bind(new TypeLiteral<Optional<L1MemoryDesc>>() {}).toInstance(registrationRegion);
        bind(MooncakeStoreAdapter.class);
    }
}
