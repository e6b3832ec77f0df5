package io.kvtier.mooncake;

import io.kvtier.mooncake.NativeAbi.MooncakeNative;
import com.google.auto.service.AutoService;
import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.ProvisionException;
import com.google.inject.spi.Message;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code mooncake_store} type. Creation order matters: the native connector is loaded first
 * (its absence is the most likely deployment problem and must not hide behind a config error),
 * then the RDMA/L1 rule, then Guice wires the instance in an injector of its own.
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

    /**
     * Discovering the type (e.g. {@code kvtier adapters}) loads nothing: the library is loaded on
     * first creation. Its master must then accept connections (see {@link MasterReachability}).
     */
    public MooncakeStoreProvider() {
        this(() -> NativeLibraryLocator.fromEnvironment().load(),
                config -> MasterReachability.check(config.setupConfig(), config.rpcTimeout()));
    }

    /** Tests hand in the test double (which has no master to reach), a missing path, or a recording wrapper. */
    MooncakeStoreProvider(Supplier<MooncakeNative> loader, BeforeCreate beforeCreate) {
        this.loader = loader;
        this.beforeCreate = beforeCreate;
    }

    @Override
    public String type() {
        return MooncakeStoreAdapter.TYPE;
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

    @Override
    public L2Adapter create(MooncakeStoreConfig config, AdapterContext context) {
        MooncakeNative lib = loader.get();
        Optional<L1MemoryDesc> region = RdmaL1Rule.regionToRegister(config, context.l1());
        beforeCreate.check(config);
        return unwrapped(() -> Guice.createInjector(new MooncakeStoreModule(config, context, lib, region))
                .getInstance(MooncakeStoreAdapter.class));
    }

    /**
     * Guice wraps what a provider method throws; callers should see our own exception (its type
     * decides whether the host reports a config or a runtime error), not Guice's wrapper.
     */
    private static <T> T unwrapped(Supplier<T> body) {
        try {
            return body.get();
        } catch (ProvisionException e) {
            throw rethrowable(e.getErrorMessages(), e);
        } catch (CreationException e) {
            throw rethrowable(e.getErrorMessages(), e);
        }
    }

    private static RuntimeException rethrowable(Collection<Message> messages, RuntimeException wrapper) {
        for (Message message : messages) {
            Throwable cause = message.getCause();
            if (cause instanceof RuntimeException r) {
                return r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
        }
        return wrapper;
    }
}
