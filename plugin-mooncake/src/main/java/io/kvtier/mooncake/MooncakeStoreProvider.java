package io.kvtier.mooncake;

import com.google.auto.service.AutoService;
import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import io.kvtier.mooncake.binding.NativeLibraryLocator;
import io.kvtier.mooncake.binding.PackagedLibrary;
import io.kvtier.mooncake.config.MooncakeStoreConfig;
import io.kvtier.mooncake.health.MasterReachability;
import io.kvtier.mooncake.health.Timings;
import io.kvtier.mooncake.l1.RdmaL1Rule;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code mooncake_store} type. Creation order matters: the native connector is loaded first
 * (its absence is the most likely deployment problem and must not hide behind a config error),
 * then the RDMA/L1 rule and the master's reachability are checked, then {@link Assembly} makes the
 * instance, and later releases it.
 */
// rawtypes: the service interface is generic; ServiceLoader only needs the raw type.
@SuppressWarnings("rawtypes")
@AutoService(L2AdapterProvider.class)
public final class MooncakeStoreProvider implements L2AdapterProvider<MooncakeStoreConfig> {
    /** What must hold before a native client is created. */
    @FunctionalInterface
    interface BeforeCreate {
        void check(MooncakeStoreConfig config);
    }

    private final Supplier<MooncakeNative> loader;
    private final BeforeCreate beforeCreate;
    private final Timings timings;

    /**
     * Discovering the type (e.g. {@code kvtier adapters}) loads nothing: the library is loaded on
     * first creation. Its master must then accept connections (see {@link MasterReachability}).
     */
    public MooncakeStoreProvider() {
        this(() -> NativeLibraryLocator.fromEnvironment().load(),
                config -> MasterReachability.check(config.setupConfig(), config.rpcTimeout()), Timings.DEFAULTS);
    }

    /**
     * Tests hand in the test double (which has no master to reach), a missing path, or a recording
     * wrapper, and shorter timings.
     */
    MooncakeStoreProvider(Supplier<MooncakeNative> loader, BeforeCreate beforeCreate, Timings timings) {
        this.loader = loader;
        this.beforeCreate = beforeCreate;
        this.timings = timings;
    }

    @Override
    public String type() {
        return MooncakeStoreAdapter.TYPE;
    }

    /** Whether the jar carries a connector, and from which Mooncake commit; loads nothing. */
    @Override
    public Map<String, String> runtime() {
        return PackagedLibrary.describe(MooncakeStoreProvider.class.getClassLoader());
    }

    @Override
    public int spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public MooncakeStoreConfig parseConfig(AdapterSettings settings) {
        return MooncakeStoreConfig.fromSettings(settings);
    }

    @Override
    public Map<String, Object> describe(MooncakeStoreConfig config) {
        return config.view();
    }

    /** Checks what must hold first, then has {@link Assembly} make the instance, which acquires everything it owns. */
    @Override
    public L2Adapter create(MooncakeStoreConfig config, AdapterContext context) {
        MooncakeNative lib = loader.get();
        Optional<L1MemoryDesc> region = RdmaL1Rule.regionToRegister(config, context.l1());
        beforeCreate.check(config);
        return Assembly.create(lib, region, config, context, timings);
    }
}
