package io.kvtier.mooncake;

import com.google.auto.service.AutoService;
import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Module;
import com.google.inject.ProvisionException;
import com.google.inject.Stage;
import com.google.inject.util.Modules;
import io.kvtier.mooncake.binding.PackagedLibrary;
import io.kvtier.mooncake.config.MooncakeStoreConfig;
import io.kvtier.mooncake.health.MasterReachability;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.util.Map;

/**
 * The {@code mooncake_store} type. Each instance gets an injector of its own over
 * {@link MooncakeStoreModule}, so two instances share nothing; its {@link Lifecycle} releases what
 * the injector made when the instance closes, or when its creation failed.
 */
// rawtypes: the service interface is generic; ServiceLoader only needs the raw type.
@SuppressWarnings("rawtypes")
@AutoService(L2AdapterProvider.class)
public final class MooncakeStoreProvider implements L2AdapterProvider<MooncakeStoreConfig> {
    private final Module overrides;

    /**
     * Discovering the type (e.g. {@code kvtier adapters}) loads nothing: the library is loaded on
     * each creation. Its master must then accept connections (see {@link MasterReachability}).
     */
    public MooncakeStoreProvider() {
        this(Modules.EMPTY_MODULE);
    }

    /**
     * Tests replace parts of every instance: the test double's library (which has no master to
     * reach), shorter timings, a step that fails.
     */
    MooncakeStoreProvider(Module overrides) {
        this.overrides = overrides;
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
     * Builds the instance's graph in {@link Stage#DEVELOPMENT}, where Guice checks it and makes
     * nothing, then makes the adapter, which makes each part once, in order. A failure reaches the
     * host as the part threw it, after everything made before it was released.
     */
    @Override
    public L2Adapter create(MooncakeStoreConfig config, AdapterContext context) {
        Lifecycle lifecycle = new Lifecycle(context.instanceName());
        // A module read afresh for each injector, though its graph is the same for every instance:
        // Guice's provider methods keep the parameter injectors of the injector that initialised
        // them last, so elements recorded once and replayed into each injector could give one
        // instance another's parts.
        Module instance = new MooncakeStoreModule(config, context, lifecycle);
        // Modules.override rewrites every binding of both modules, a cost no instance of a host needs.
        Module module = overrides == Modules.EMPTY_MODULE ? instance : Modules.override(instance).with(overrides);
        try {
            return Guice.createInjector(Stage.DEVELOPMENT, module).getInstance(MooncakeStoreAdapter.class);
        } catch (ProvisionException | CreationException e) {
            // What the part threw, without Guice's wrapping; without one, the graph itself is broken: our bug.
            Throwable part = e.getCause() instanceof RuntimeException || e.getCause() instanceof Error ? e.getCause()
                    : new IllegalStateException("mooncake_store: cannot wire the instance: " + e.getMessage(), e);
            lifecycle.close(part::addSuppressed);
            if (part instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) part;
        } catch (RuntimeException | Error e) {
            lifecycle.close(e::addSuppressed);
            throw e;
        }
    }
}
