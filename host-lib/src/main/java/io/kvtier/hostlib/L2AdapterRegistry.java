package io.kvtier.hostlib;

import io.kvtier.spi.ConfigurationException;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Adapter providers keyed by type name. */
public final class L2AdapterRegistry {
    /** Guards against a class loader whose iterator keeps failing on the same entry. */
    private static final int MAX_LOAD_FAILURES = 1000;

    private final Map<String, L2AdapterProvider<?>> providers = new TreeMap<>();
    private final Map<String, Optional<AdapterReference>> references = new TreeMap<>();
    private final List<String> loadFailures = new ArrayList<>();

    private L2AdapterRegistry() {}

    /**
     * Scans {@code META-INF/services} through each of {@code loaders} (the host's own, and one per
     * isolated plugin). A provider that fails to load, or was built against a newer contract than
     * this host's ({@link SpiVersion}), is recorded in {@link #loadFailures()} as one line and
     * does not hide the others.
     *
     * @throws ConfigurationException when two providers claim one type name, naming both jars
     */
    public static L2AdapterRegistry load(List<ClassLoader> loaders) {
        L2AdapterRegistry registry = new L2AdapterRegistry();
        for (ClassLoader loader : loaders) {
            // A provider's constructor and static initialisers are plugin code as well.
            try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(loader)) {
                registry.scan(loader);
            }
        }
        return registry;
    }

    public static L2AdapterRegistry load(ClassLoader loader) {
        return load(List.of(loader));
    }

    /**
     * The adapter types {@code host} sees, plus those of the isolated plugins in the directories
     * under {@code pluginsDir} ({@link PluginDirectories}); a missing {@code pluginsDir} adds none.
     */
    public static L2AdapterRegistry load(ClassLoader host, Path pluginsDir) {
        List<ClassLoader> loaders = new ArrayList<>(List.of(host));
        loaders.addAll(PluginDirectories.classLoaders(pluginsDir, host));
        return load(loaders);
    }

    private void scan(ClassLoader loader) {
        @SuppressWarnings("rawtypes")
        Iterator<L2AdapterProvider> it = ServiceLoader.load(L2AdapterProvider.class, loader).iterator();
        int failures = 0;
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                admit(it.next());
            } catch (ServiceConfigurationError e) {
                loadFailures.add(describe(e));
                if (++failures >= MAX_LOAD_FAILURES) {
                    break;
                }
            }
        }
    }

    public static L2AdapterRegistry of(L2AdapterProvider<?>... providers) {
        L2AdapterRegistry registry = new L2AdapterRegistry();
        for (L2AdapterProvider<?> provider : providers) {
            registry.register(provider, provider.type(), AdapterReference.of(provider));
        }
        return registry;
    }

    /** Why a provider built for another contract is refused, or null when it is accepted. */
    private static String refusal(L2AdapterProvider<?> provider, String type) {
        int built = provider.spiVersion();
        if (built <= SpiVersion.CURRENT) {
            return null;
        }
        return "'" + type + "' (" + where(provider) + ") was built for kvtier SPI version " + built
                + ", but this host provides version " + SpiVersion.CURRENT
                + ": use a build of the plugin for SPI " + SpiVersion.CURRENT + " or a newer host";
    }

    /** The provider's class and its jar, e.g. {@code com.x.MyProvider in /opt/plugins/x.jar}. */
    private static String where(L2AdapterProvider<?> provider) {
        return provider.getClass().getName() + " in " + origin(provider.getClass());
    }

    /** The jar or directory a class was loaded from. */
    static String origin(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        return source == null || source.getLocation() == null ? "(unknown location)" : source.getLocation().getPath();
    }

    private static String describe(ServiceConfigurationError e) {
        Throwable cause = e.getCause();
        return cause == null ? e.getMessage() : e.getMessage() + " (" + cause + ")";
    }

    /**
     * Registers a discovered provider, or records in one line why it is refused. A provider is
     * plugin code: whatever it throws is its own failure and must not hide the other providers;
     * it runs with its own class loader as the thread's context class loader.
     */
    private void admit(L2AdapterProvider<?> provider) {
        String type;
        Optional<AdapterReference> reference;
        try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(provider.getClass().getClassLoader())) {
            type = provider.type();
            if (type == null || type.isEmpty()) {
                loadFailures.add(where(provider) + ": type() returned " + (type == null ? "null" : "\"\"")
                        + " instead of a type name");
                return;
            }
            String refusal = refusal(provider, type);
            if (refusal != null) {
                loadFailures.add(refusal);
                return;
            }
            reference = AdapterReference.of(provider);
        } catch (RuntimeException | Error e) {
            loadFailures.add(where(provider) + " failed: " + String.valueOf(e).replace('\n', ' '));
            return;
        }
        register(provider, type, reference);
    }

    private void register(L2AdapterProvider<?> provider, String type, Optional<AdapterReference> reference) {
        L2AdapterProvider<?> first = providers.putIfAbsent(type, provider);
        if (first != null) {
            throw new ConfigurationException("two adapter providers declare the type '" + type + "': " + where(first)
                    + ", and " + where(provider) + "; remove one of them");
        }
        references.put(type, reference);
    }

    /** The type's reference.conf, or empty when its jar ships none. */
    public Optional<AdapterReference> reference(String type) {
        return references.getOrDefault(type, Optional.empty());
    }

    /**
     * The type's {@link L2AdapterProvider#runtime()} facts, asked with the plugin's loader as the
     * context loader; a provider that fails to tell is a fact too.
     */
    public Map<String, String> runtime(String type) {
        L2AdapterProvider<?> provider = require(type);
        try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(provider.getClass().getClassLoader())) {
            return Map.copyOf(provider.runtime());
        } catch (RuntimeException | LinkageError e) {
            return Map.of("runtime", "the provider failed to tell: " + e);
        }
    }

    public Optional<L2AdapterProvider<?>> find(String type) {
        return Optional.ofNullable(providers.get(type));
    }

    /** @throws IllegalArgumentException "unknown adapter type 't'. Known: a, b" */
    public L2AdapterProvider<?> require(String type) {
        L2AdapterProvider<?> provider = providers.get(type);
        if (provider == null) {
            throw new IllegalArgumentException("unknown adapter type '" + type + "'. Known: " + knownTypes());
        }
        return provider;
    }

    /** Registered type names, sorted. */
    public List<String> types() {
        return List.copyOf(providers.keySet());
    }

    public String knownTypes() {
        return providers.isEmpty() ? "(none)" : String.join(", ", providers.keySet());
    }

    public List<String> loadFailures() {
        return Collections.unmodifiableList(loadFailures);
    }
}
