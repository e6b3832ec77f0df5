package io.kvtier.hostlib;

import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.ConfigurationException;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A declaration parsed by its provider, ready to create an instance. */
public final class ConfiguredAdapter<C> {
    private final AdapterDeclaration declaration;
    private final L2AdapterProvider<C> provider;
    private final C config;
    private final List<String> warnings;

    private ConfiguredAdapter(AdapterDeclaration declaration, L2AdapterProvider<C> provider, C config,
                              List<String> warnings) {
        this.declaration = declaration;
        this.provider = provider;
        this.config = config;
        this.warnings = warnings;
    }

    /**
     * @throws ConfigurationException at the offending key when the provider rejects the declaration
     * @throws IllegalStateException  when the provider fails in any other way: a bug, not the user's error
     */
    static <C> ConfiguredAdapter<C> parse(AdapterDeclaration declaration, L2AdapterProvider<C> provider,
                                          Optional<AdapterReference> reference) {
        DeclaredSettings settings = reference.map(declaration.settings()::withDefaults).orElse(declaration.settings());
        List<String> warnings = reference.map(r -> unknownKeyWarnings(declaration, r)).orElse(List.of());
        try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(provider.getClass().getClassLoader())) {
            return new ConfiguredAdapter<>(declaration, provider, provider.parseConfig(settings), warnings);
        } catch (ConfigurationException e) {
            throw locatedAtTheDeclaration(declaration, e);
        } catch (IllegalArgumentException e) {
            throw providerFailure(declaration, "parsing", e);
        } catch (LinkageError e) {
            throw incomplete(declaration, provider, e);
        } catch (Error e) {
            throw providerFailure(declaration, "parsing", e);
        }
    }

    /**
     * Only {@link ConfigurationException} is the user's error. Any other IllegalArgumentException
     * (a NumberFormatException, say) escaped the provider by mistake and must not read as one; an
     * Error out of plugin code (an AssertionError, say) is the plugin's failure, not the host's end.
     */
    private static IllegalStateException providerFailure(AdapterDeclaration declaration, String step, Throwable e) {
        return new IllegalStateException(declaration.source() + " ('" + declaration.type() + "'): the provider failed "
                + step + " the declaration: " + e, e);
    }

    /** A declared key the type's reference.conf does not know is most likely a typo. */
    private static List<String> unknownKeyWarnings(AdapterDeclaration declaration, AdapterReference reference) {
        DeclaredSettings settings = declaration.settings();
        return reference.unknownKeys(settings.declaredKeys()).stream()
                .map(key -> settings.locate(List.of(key)) + " ('" + declaration.type() + "'): unknown key '" + key
                        + "': neither an option of " + declaration.type() + " nor a documented pass-through"
                        + reference.closestKey(key).map(known -> "; did you mean '" + known + "'?").orElse("")
                        + " (see: kvtier adapters " + declaration.type() + ")")
                .toList();
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

    /** Problems that do not stop the declaration, e.g. unknown keys, each naming its file and line. */
    public List<String> warnings() {
        return warnings;
    }

    /** The plugin's class loader: the one its provider was loaded by. */
    public ClassLoader classLoader() {
        return provider.getClass().getClassLoader();
    }

    public C config() {
        return config;
    }

    public Map<String, Object> describe() {
        try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(classLoader())) {
            return provider.describe(config);
        } catch (LinkageError e) {
            throw incomplete(declaration, provider, e);
        } catch (Error e) {
            throw providerFailure(declaration, "describing", e);
        }
    }

    /** A class the plugin needs is missing: an isolated plugin must bundle all but the contract and metrics-core. */
    private static IllegalStateException incomplete(AdapterDeclaration declaration, L2AdapterProvider<?> provider,
                                                    LinkageError e) {
        return new IllegalStateException(declaration.source() + " ('" + declaration.type() + "'): the plugin in "
                + L2AdapterRegistry.origin(provider.getClass()) + " cannot run: " + e
                + " (a plugin bundles everything but the contract io.kvtier.spi and metrics-core)", e);
    }

    /**
     * @throws ConfigurationException when the provider rejects the configuration in this context
     * @throws IllegalStateException  when the provider fails with an IllegalArgumentException of another kind, or an Error;
     *                                or when the instance cannot start (its master is down, say), naming the instance
     *                                and where it is declared, with the provider's exception as the cause
     */
    public L2Adapter create(AdapterContext context) {
        try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(classLoader())) {
            return provider.create(config, context);
        } catch (ConfigurationException e) {
            throw locatedAtTheDeclaration(declaration, e);
        } catch (IllegalArgumentException e) {
            throw providerFailure(declaration, "creating an instance of", e);
        } catch (LinkageError e) {
            throw incomplete(declaration, provider, e);
        } catch (Error e) {
            throw providerFailure(declaration, "creating an instance of", e);
        } catch (RuntimeException e) {
            throw new IllegalStateException(declaration.source() + " ('" + declaration.type() + "'): instance '"
                    + declaration.name() + "' could not be created: " + (e.getMessage() == null ? e : e.getMessage()), e);
        }
    }
}
