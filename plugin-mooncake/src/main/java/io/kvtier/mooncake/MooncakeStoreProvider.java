package io.kvtier.mooncake;

import io.kvtier.mooncake.NativeAbi.MooncakeNative;
import com.google.auto.service.AutoService;
import com.google.inject.Guice;
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
 * then the RDMA/L1 rule, then the client and the registration, then Guice wires the instance in an
 * injector of its own ({@link MooncakeStoreModule}).
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

    /**
     * Acquires what the instance owns, in order: the native client, the L1 registration (when
     * {@link RdmaL1Rule} wants one), then what the injector makes, and last the gauges and the
     * health probe. If one step fails, what was acquired before it is released, newest first, so a
     * failed creation leaks nothing, and its exception reaches the host as it was thrown.
     */
    @Override
    public L2Adapter create(MooncakeStoreConfig config, AdapterContext context) {
        MooncakeNative lib = loader.get();
        Optional<L1MemoryDesc> region = RdmaL1Rule.regionToRegister(config, context.l1());
        beforeCreate.check(config);
        Acquired acquired = new Acquired();
        try {
            MooncakeClient client = acquired.add(MooncakeClient.open(lib, config.setupConfig(), config.rpcTimeout(),
                    config.nativeClients()));
            L1Registration registration = acquired.add(region
                    .map(r -> L1Registration.register(client, r.address(), r.size()))
                    .orElse(L1Registration.DISABLED));
            return Guice.createInjector(new MooncakeStoreModule(config, context, timings, client, registration, acquired))
                    .getInstance(MooncakeStoreAdapter.class)
                    .start();
        } catch (RuntimeException | Error e) {
            acquired.releaseAll(e);
            throw e;
        }
    }
}
