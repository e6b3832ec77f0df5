package io.kvtier.hostlib;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigValueType;
import io.kvtier.spi.L2AdapterProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An adapter type's {@code reference.conf}, shipped in its jar at {@value #RESOURCE_PATTERN}: the
 * one documented source of its options. {@code options} holds every option the type reads, with
 * its default (the values declarations fall back to); {@code pass-through} lists keys the type
 * only forwards, with their owner's defaults. Comments give each key's meaning and valid range.
 */
public final class AdapterReference {
    public static final String RESOURCE_PATTERN = "kvtier/adapters/<type>/reference.conf";

    private final String text;
    private final ConfigObject options;
    private final Set<String> knownKeys;

    private AdapterReference(String text, ConfigObject options, Set<String> knownKeys) {
        this.text = text;
        this.options = options;
        this.knownKeys = knownKeys;
    }

    public static String resourceOf(String type) {
        return RESOURCE_PATTERN.replace("<type>", type);
    }

    /**
     * The reference of {@code provider}'s type, read through the provider's own class loader, or
     * empty when its jar ships none.
     *
     * @throws IllegalStateException when the file is there but is not valid HOCON of that shape
     */
    public static Optional<AdapterReference> of(L2AdapterProvider<?> provider) {
        String resource = resourceOf(provider.type());
        ClassLoader loader = provider.getClass().getClassLoader();
        String text;
        try (InputStream in = loader == null ? null : loader.getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(resource, e);
        }
        try {
            Config config = ConfigFactory.parseString(text, ConfigParseOptions.defaults().setOriginDescription(resource));
            ConfigObject options = section(config, "options");
            Set<String> known = new HashSet<>(options.keySet());
            known.addAll(section(config, "pass-through").keySet());
            known.add("type");
            return Optional.of(new AdapterReference(text, options, Set.copyOf(known)));
        } catch (ConfigException e) {
            throw new IllegalStateException(resource + " of adapter type '" + provider.type() + "' is broken: "
                    + e.getMessage(), e);
        }
    }

    private static ConfigObject section(Config config, String name) {
        if (!config.hasPath(name)) {
            return ConfigFactory.empty().root();
        }
        if (config.getValue(name).valueType() != ConfigValueType.OBJECT) {
            throw new ConfigException.WrongType(config.getValue(name).origin(), "'" + name + "' must be an object");
        }
        return config.getObject(name);
    }

    /** The file as written, comments included: what {@code kvtier adapters TYPE} prints. */
    public String text() {
        return text;
    }

    /** The first line of the file without its {@code #}: the type's one-line summary. */
    public String summary() {
        String first = text.lines().findFirst().orElse("");
        return first.startsWith("#") ? first.substring(1).strip() : "";
    }

    /** The options with their defaults, which a declaration's own values replace. */
    ConfigObject options() {
        return options;
    }

    /** The documented key {@code unknown} is most likely a typo of, if any. */
    Optional<String> closestKey(String unknown) {
        return Spelling.closest(unknown, knownKeys);
    }

    /** Keys of {@code declared} that are neither an option nor a documented pass-through. */
    List<String> unknownKeys(Set<String> declared) {
        return declared.stream().filter(key -> !knownKeys.contains(key)).sorted().toList();
    }
}
