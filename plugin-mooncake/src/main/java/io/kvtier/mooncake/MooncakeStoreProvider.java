package io.kvtier.mooncake;

import io.kvtier.mooncake.NativeAbi.MooncakeNative;
import com.google.auto.service.AutoService;
import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Injector;
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
 * then the RDMA/L1 rule, then Guice wires the instance in a child injector of its own.
 */
// rawtypes: the service interface is generic; ServiceLoader only needs the raw type.
@SuppressWarnings("rawtypes")
@AutoService(L2AdapterProvider.class)
public final class MooncakeStoreProvider implements L2AdapterProvider<MooncakeStoreConfig> {
    private final Supplier<MooncakeNative> loader;
    private Injector parent;

    public MooncakeStoreProvider() {
        this(() -> NativeLibraryLocator.fromEnvironment().load());
    }

    /** Tests hand in the test double, a missing path, or a recording wrapper. */
    MooncakeStoreProvider(Supplier<MooncakeNative> loader) {
        this.loader = loader;
    }

    /** Built on first use: discovering the type (e.g. {@code kvtier adapters}) should not start Guice. */
    private synchronized Injector parent() {
        if (parent == null) {
            parent = Guice.createInjector(new NativeBindingModule(loader));
        }
        return parent;
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
        unwrapped(() -> parent().getInstance(MooncakeNative.class));
        Optional<L1MemoryDesc> region = RdmaL1Rule.regionToRegister(config, context.l1());
        CreationCleanup cleanup = new CreationCleanup();
        try {
            return unwrapped(() -> parent()
                    .createChildInjector(new MooncakeStoreModule(config, context, region, cleanup))
                    .getInstance(MooncakeStoreAdapter.class));
        } catch (RuntimeException | Error e) {
            cleanup.runAll();
            throw e;
        }
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

    @Override
    public String help() {
        return """
                mooncake_store: stores KV-cache chunks in a Mooncake Store cluster through the native \
                connector (libkvtier_mooncake.so, built with BUILD_MOONCAKE=1).

                Keys consumed by kvtier:
                  num_workers      threads of the shared worker pool (positive integer, default 4)
                  per_op_workers   dedicated pools per lane, e.g. {"lookup": 2, "retrieve": 16, "store": 4};
                                   lanes: lookup (exists), retrieve (get/load), store (put), delete (remove).
                                   Lanes not listed use the shared pool, which exists only if some lane uses it.
                  replica_num      memory replicas per write (non-negative integer, Mooncake default 1)
                  nof_replica_num  NoF replicas per write (non-negative integer, Mooncake default 0)
                                   Both go to every batch_put_from, never to setup_internal.
                  eviction         {"eviction_policy": "LRU"|"IsolatedLRU"|"noop", "trigger_watermark": 0.8,
                                    "eviction_ratio": 0.2}
                  type             the adapter type

                Every other key whose value is not null is forwarded to Mooncake's
                setup_internal(ConfigDict) as a string (integers in decimal, booleans as True/False),
                e.g. local_hostname, metadata_server, master_server_addr, protocol, rdma_devices,
                global_segment_size, local_buffer_size. Objects and arrays are rejected: Mooncake
                takes only strings. Mooncake ignores keys it does not know, so two common
                misspellings are errors here: master_server_address (use master_server_addr) and
                device_name (use rdma_devices).

                protocol=rdma (any case) registers the host's whole L1 region with Mooncake, in
                blocks of Mooncake's max_mr_size. It needs an L1 memory descriptor, and a fully
                allocated L1: run the host with --no-l1-use-lazy. Over tcp nothing is registered.

                Example: {"type": "mooncake_store", "local_hostname": "127.0.0.1",
                          "metadata_server": "P2PHANDSHAKE", "master_server_addr": "127.0.0.1:50051",
                          "protocol": "tcp", "per_op_workers": {"lookup": 2, "retrieve": 8}}
                """;
    }
}
