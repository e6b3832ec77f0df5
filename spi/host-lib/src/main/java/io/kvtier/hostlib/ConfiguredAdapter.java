package io.kvtier.hostlib;

import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.ConfigurationException;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import java.util.Map;

/** A declaration parsed by its provider, ready to create an instance. */
public final class ConfiguredAdapter<C> {
    private final AdapterDeclaration declaration;
    private final L2AdapterProvider<C> provider;
    private final C config;

    private ConfiguredAdapter(AdapterDeclaration declaration, L2AdapterProvider<C> provider, C config) {
        this.declaration = declaration;
        this.provider = provider;
        this.config = config;
    }

    /**
     * @throws ConfigurationException at the offending key when the provider rejects the declaration
     * @throws IllegalStateException  when the provider fails in any other way: a bug, not the user's error
     */
    static <C> ConfiguredAdapter<C> parse(AdapterDeclaration declaration, L2AdapterProvider<C> provider) {
        try {
            return new ConfiguredAdapter<>(declaration, provider, provider.parseConfig(declaration.settings()));
        } catch (ConfigurationException e) {
            throw locatedAtTheDeclaration(declaration, e);
        } catch (IllegalArgumentException e) {
            throw providerFailure(declaration, "parsing", e);
        }
    }

    /**
     * Only {@link ConfigurationException} is the user's error. Any other IllegalArgumentException
     * (a NumberFormatException, say) escaped the provider by mistake and must not read as one.
     */
    private static IllegalStateException providerFailure(AdapterDeclaration declaration, String step, RuntimeException e) {
        return new IllegalStateException(declaration.source() + " ('" + declaration.type() + "'): the provider failed "
                + step + " the declaration: " + e, e);
    }

    /** A provider's error without an origin of its own is placed at the declaration. */
    private static ConfigurationException locatedAtTheDeclaration(AdapterDeclaration declaration, ConfigurationException e) {
        if (!e.origin().isEmpty()) {
            return e;
        }
        return new DeclarationException(declaration.source() + " ('" + declaration.type() + "')", e.problem(), e);
    }

    public String name() {
        return declaration.name();
    }

    public String type() {
        return declaration.type();
    }

    public String source() {
        return declaration.source();
    }

    public C config() {
        return config;
    }

    public Map<String, Object> describe() {
        return provider.describe(config);
    }

    /**
     * @throws ConfigurationException when the provider rejects the configuration in this context
     * @throws IllegalStateException  when the provider fails with an IllegalArgumentException of another kind
     */
    public L2Adapter create(AdapterContext context) {
        try {
            return provider.create(config, context);
        } catch (ConfigurationException e) {
            throw locatedAtTheDeclaration(declaration, e);
        } catch (IllegalArgumentException e) {
            throw providerFailure(declaration, "creating an instance of", e);
        }
    }
}
