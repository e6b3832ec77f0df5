package io.kvtier.spi;

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

    /** @throws DeclarationException "source ('type'): message" when the provider rejects the body */
    static <C> ConfiguredAdapter<C> parse(AdapterDeclaration declaration, L2AdapterProvider<C> provider) {
        try {
            return new ConfiguredAdapter<>(declaration, provider, provider.parseConfig(declaration.body()));
        } catch (IllegalArgumentException e) {
            throw new DeclarationException(
                    declaration.source() + " ('" + declaration.type() + "'): " + e.getMessage(), e);
        }
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
     * @throws DeclarationException when the provider rejects the configuration in this context
     */
    public L2Adapter create(AdapterContext context) {
        try {
            return provider.create(config, context);
        } catch (IllegalArgumentException e) {
            throw new DeclarationException(source() + " ('" + type() + "'): " + e.getMessage(), e);
        }
    }
}
