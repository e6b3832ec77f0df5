package io.kvtier.spi;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Reads adapter declarations: HOCON files with a {@code kvtier.l2.adapters} list, then repeatable
 * {@code --l2-adapter '<JSON>'} flags. Every error names its source.
 */
public final class Declarations {
    public static final String ADAPTERS_PATH = "kvtier.l2.adapters";

    /** A declaration body with its source, before names are assigned. */
    public record Entry(Map<String, Object> body, String source) {}

    private Declarations() {}

    /** Entries of one HOCON file, in order. Substitutions resolve against the environment. */
    public static List<Entry> fromHoconFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new DeclarationException(file + ": no such file");
        }
        String name = file.toString();
        return fromConfig(parse(() -> ConfigFactory.parseFile(file.toFile(), strict()), name), name);
    }

    /** Entries of HOCON text; {@code name} stands for its file in messages. */
    public static List<Entry> fromHoconString(String text, String name) {
        return fromConfig(parse(() -> ConfigFactory.parseString(text, strict().setOriginDescription(name)), name), name);
    }

    private static ConfigParseOptions strict() {
        return ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false);
    }

    private static Config parse(Supplier<Config> parse, String name) {
        try {
            return parse.get().resolve();
        } catch (ConfigException e) {
            throw new DeclarationException(name + ": " + e.getMessage(), e);
        }
    }

    private static List<Entry> fromConfig(Config config, String name) {
        if (!config.hasPathOrNull(ADAPTERS_PATH)) {
            throw new DeclarationException(name + ": missing list '" + ADAPTERS_PATH + "'");
        }
        ConfigValue list = config.getValue(ADAPTERS_PATH);
        if (list.valueType() != ConfigValueType.LIST) {
            throw new DeclarationException(sourceOf(name, list) + ": '" + ADAPTERS_PATH
                    + "' must be a list, got " + ConfigValues.jsonType(list.unwrapped()));
        }
        List<Entry> entries = new ArrayList<>();
        for (ConfigValue item : config.getList(ADAPTERS_PATH)) {
            String source = sourceOf(name, item);
            if (item.valueType() != ConfigValueType.OBJECT) {
                throw new DeclarationException(
                        source + ": expected an object, got " + ConfigValues.jsonType(item.unwrapped()));
            }
            entries.add(new Entry(unwrap((ConfigObject) item), source));
        }
        return entries;
    }

    private static String sourceOf(String name, ConfigValue value) {
        int line = value.origin().lineNumber();
        return line > 0 ? name + ":" + line : name;
    }

    /** Entries of {@code --l2-adapter} flags, numbered from 1 in messages. */
    public static List<Entry> fromJsonFlags(List<String> flags) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < flags.size(); i++) {
            String source = "--l2-adapter #" + (i + 1);
            Object value = parseJson(flags.get(i), source);
            if (!(value instanceof Map)) {
                throw new DeclarationException(source + ": expected a JSON object, got " + ConfigValues.jsonType(value));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> body = (Map<String, Object>) value;
            entries.add(new Entry(body, source));
        }
        return entries;
    }

    /** Parses any JSON value by wrapping it as the only member of an object. */
    private static Object parseJson(String json, String source) {
        ConfigObject wrapper;
        try {
            wrapper = ConfigFactory.parseString("{\"v\":\n" + json + "\n}",
                    ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON).setOriginDescription("JSON")).root();
        } catch (ConfigException e) {
            throw new DeclarationException("Invalid JSON for " + source + ": " + e.getMessage(), e);
        }
        if (wrapper.size() != 1 || !wrapper.containsKey("v")) {
            throw new DeclarationException("Invalid JSON for " + source + ": not a single JSON value");
        }
        ConfigValue value = wrapper.get("v");
        return value.valueType() == ConfigValueType.OBJECT ? unwrap((ConfigObject) value) : value.unwrapped();
    }

    /** Unwraps an object keeping null members, which {@link ConfigObject#unwrapped()} also does. */
    private static Map<String, Object> unwrap(ConfigObject object) {
        return new LinkedHashMap<>(object.unwrapped());
    }

    /**
     * Assigns names ({@code <type>-<index>} by default, 0-based over all entries), checks
     * {@code type} and {@code name}, and strips {@code name} from each body.
     */
    public static List<AdapterDeclaration> resolve(List<Entry> entries) {
        List<AdapterDeclaration> declarations = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            Map<String, Object> body = new LinkedHashMap<>(entry.body());
            if (!body.containsKey("type")) {
                throw new DeclarationException(entry.source() + ": missing 'type' field");
            }
            if (!(body.get("type") instanceof String type) || type.isEmpty()) {
                throw new DeclarationException(entry.source() + ": 'type' must be a non-empty string, got "
                        + ConfigValues.toJson(body.get("type")));
            }
            String name = type + "-" + i;
            if (body.containsKey("name")) {
                Object declared = body.remove("name");
                if (!(declared instanceof String s) || s.isBlank()) {
                    throw new DeclarationException(entry.source() + ": 'name' must be a non-empty string, got "
                            + ConfigValues.toJson(declared));
                }
                name = s;
            }
            String first = seen.putIfAbsent(name, entry.source());
            if (first != null) {
                throw new DeclarationException(
                        entry.source() + ": duplicate adapter name '" + name + "' (first declared at " + first + ")");
            }
            declarations.add(new AdapterDeclaration(name, type, body, entry.source()));
        }
        return declarations;
    }

    /** Parses every declaration with its provider. */
    public static List<ConfiguredAdapter<?>> configure(L2AdapterRegistry registry, List<AdapterDeclaration> declarations) {
        List<ConfiguredAdapter<?>> configured = new ArrayList<>();
        for (AdapterDeclaration declaration : declarations) {
            L2AdapterProvider<?> provider = registry.find(declaration.type()).orElseThrow(() -> new DeclarationException(
                    declaration.source() + ": unknown adapter type '" + declaration.type() + "'. Known: "
                            + registry.knownTypes()));
            configured.add(ConfiguredAdapter.parse(declaration, provider));
        }
        return configured;
    }
}
