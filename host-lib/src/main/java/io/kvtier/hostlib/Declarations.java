package io.kvtier.hostlib;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.toolkit.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Reads adapter declarations: HOCON files with a {@code kvtier.l2.adapters} list, then repeatable
 * {@code --l2-adapter '<JSON>'} flags. Every value keeps its origin, so every error names the
 * file and line, or the flag and column, of the offending key.
 */
public final class Declarations {
    public static final String ADAPTERS_PATH = "kvtier.l2.adapters";
    /**
     * The most a declaration file or flag may hold. Declarations take a few hundred bytes; the
     * bound keeps a wrong file from costing minutes and gigabytes in the parser.
     */
    public static final int MAX_TEXT_BYTES = 1 << 20;
    /**
     * The longest instance name. A name is a label, not data: it is part of every metric name and
     * thread name of its instance and of each line that reports on it, and is typed on
     * {@code --instance}. 64 characters are more than a DNS label or a Kubernetes label value (63).
     */
    public static final int MAX_NAME_LENGTH = 64;

    /**
     * A declaration body before names are assigned.
     *
     * @param source   where the declaration starts: {@code file:line} or {@code --l2-adapter #i}
     * @param flag     for a {@code --l2-adapter} flag, its name ({@code --l2-adapter #i}); otherwise null
     * @param flagText for a flag, the JSON text the user typed, where error columns are counted
     */
    public record Entry(ConfigObject body, String source, String flag, String flagText) {}

    private Declarations() {}

    /**
     * Entries of one HOCON file, in order. Substitutions resolve against the environment. The file
     * must be UTF-8 text of at most {@link #MAX_TEXT_BYTES}.
     */
    public static List<Entry> fromHoconFile(Path file) {
        String name = file.toString();
        InputFiles.requireRegular(file, name, MAX_TEXT_BYTES);
        checkNesting(DeclarationText.readUtf8(file, name), name);
        return fromConfig(parse(() -> ConfigFactory.parseFile(file.toFile(), strict()), name), name);
    }

    /** Entries of HOCON text; {@code name} stands for its file in messages. */
    public static List<Entry> fromHoconString(String text, String name) {
        checkNesting(text, name);
        return fromConfig(parse(() -> ConfigFactory.parseString(text, strict().setOriginDescription(name)), name), name);
    }

    private static void checkNesting(String text, String name) {
        Nesting.Problem problem = Nesting.check(text, true);
        if (problem != null) {
            throw new DeclarationException(name + ":" + DeclarationText.lineAt(text, problem.offset()), problem.message());
        }
    }

    private static ConfigParseOptions strict() {
        return ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false)
                .setIncluder(NoIncludes.INSTANCE);
    }

    private static Config parse(Supplier<Config> parse, String name) {
        try {
            return parse.get().resolve();
        } catch (ConfigException e) {
            throw new DeclarationException(e.origin() == null ? name : Origins.where(e.origin()), Origins.problem(e), e);
        }
    }

    private static List<Entry> fromConfig(Config config, String name) {
        if (!config.hasPathOrNull(ADAPTERS_PATH)) {
            throw new DeclarationException(name, "missing list '" + ADAPTERS_PATH + "'");
        }
        // Read through the parent, which hands out a null as a value with its origin.
        ConfigValue list = config.getObject("kvtier.l2").get("adapters");
        if (list.valueType() != ConfigValueType.LIST) {
            throw new DeclarationException(Origins.where(list.origin()),
                    "'" + ADAPTERS_PATH + "' must be a list, got " + Json.typeName(list.unwrapped()));
        }
        if (config.getList(ADAPTERS_PATH).isEmpty()) {
            // A host run over no instance would pass every check while testing nothing.
            throw new DeclarationException(Origins.where(list.origin()),
                    "'" + ADAPTERS_PATH + "' is empty: declare at least one adapter");
        }
        List<Entry> entries = new ArrayList<>();
        for (ConfigValue item : config.getList(ADAPTERS_PATH)) {
            String source = Origins.where(item.origin());
            if (item.valueType() != ConfigValueType.OBJECT) {
                throw new DeclarationException(source, "expected an object, got " + Json.typeName(item.unwrapped()));
            }
            entries.add(new Entry((ConfigObject) item, source, null, null));
        }
        return entries;
    }

    /** Entries of {@code --l2-adapter} flags, numbered from 1 in messages. */
    public static List<Entry> fromJsonFlags(List<String> flags) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < flags.size(); i++) {
            String flag = "--l2-adapter #" + (i + 1);
            if (flags.get(i).length() > MAX_TEXT_BYTES) {
                throw new DeclarationException(flag, "is " + flags.get(i).length() + " characters long, more than the limit of "
                        + MAX_TEXT_BYTES);
            }
            entries.add(new Entry(parseJsonObject(flags.get(i), flag), flag, flag, flags.get(i)));
        }
        return entries;
    }

    /** The flag's own text is parsed, so Typesafe's line numbers count the user's lines. */
    private static ConfigObject parseJsonObject(String json, String flag) {
        String trimmed = json.strip();
        if (!trimmed.startsWith("{")) {
            throw new DeclarationException(flag, "expected a JSON object, got " + jsonTypeOf(trimmed));
        }
        Nesting.Problem deep = Nesting.check(json, false);
        if (deep != null) {
            throw new DeclarationException(flag + ", " + Origins.lineAndColumn(json, deep.offset()), deep.message());
        }
        int tooLarge = JsonSyntax.firstIntegerBeyondLong(json);
        if (tooLarge >= 0) {
            throw new DeclarationException(flag + ", " + Origins.lineAndColumn(json, tooLarge), "the integer "
                    + JsonSyntax.numberAt(json, tooLarge) + " is out of range: kvtier reads integers from "
                    + Long.MIN_VALUE + " to " + Long.MAX_VALUE);
        }
        try {
            return ConfigFactory.parseString(json,
                    ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON).setOriginDescription(flag)).root();
        } catch (ConfigException e) {
            throw new DeclarationException("Invalid JSON for " + flag + Origins.syntaxErrorIn(json, e), Origins.problem(e), e);
        }
    }

    /** The JSON type a non-object value would have, by its first character. */
    private static String jsonTypeOf(String text) {
        if (text.startsWith("[")) {
            return "array";
        } else if (text.startsWith("\"")) {
            return "string";
        } else if (text.equals("true") || text.equals("false")) {
            return "boolean";
        } else if (text.equals("null")) {
            return "null";
        } else if (!text.isEmpty() && (Character.isDigit(text.charAt(0)) || text.charAt(0) == '-')) {
            return "number";
        }
        return "no JSON value: '" + text + "'";
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
            DeclaredSettings located = new DeclaredSettings("", entry.body(), entry.flag(), entry.flagText());
            if (!entry.body().containsKey("type")) {
                throw new DeclarationException(entry.source(), "missing 'type' field");
            }
            Object type = entry.body().get("type").unwrapped();
            if (!(type instanceof String typeName) || typeName.isEmpty()) {
                throw new DeclarationException(located.locate(List.of("type")),
                        "'type' must be a non-empty string, got " + Json.render(type));
            }
            String name = typeName + "-" + i;
            if (entry.body().containsKey("name")) {
                Object declared = entry.body().get("name").unwrapped();
                if (!(declared instanceof String s) || s.isBlank() || s.chars().anyMatch(Character::isISOControl)) {
                    throw new DeclarationException(located.locate(List.of("name")),
                            "'name' must be a non-empty string without control characters, got " + Json.render(declared));
                }
                if (s.length() > MAX_NAME_LENGTH) {
                    throw new DeclarationException(located.locate(List.of("name")), "'name' must be at most "
                            + MAX_NAME_LENGTH + " characters, got " + s.length() + ": " + Json.render(s));
                }
                name = s;
            }
            String first = seen.putIfAbsent(name, entry.source());
            if (first != null) {
                throw new DeclarationException(entry.source(),
                        "duplicate adapter name '" + name + "' (first declared at " + first + ")");
            }
            declarations.add(AdapterDeclaration.of(name, typeName, entry));
        }
        return declarations;
    }

    /**
     * The declarations of {@code files} (HOCON, in order), then of {@code jsonFlags} (one JSON object
     * each), named and parsed by their providers in {@code registry}. Each one's {@link
     * ConfiguredAdapter#warnings()} are for the host to show.
     */
    public static List<ConfiguredAdapter<?>> load(L2AdapterRegistry registry, List<Path> files, List<String> jsonFlags) {
        List<Entry> entries = new ArrayList<>();
        for (Path file : files) {
            entries.addAll(fromHoconFile(file));
        }
        entries.addAll(fromJsonFlags(jsonFlags));
        return configure(registry, resolve(entries));
    }

    /** Parses every declaration with its provider. */
    public static List<ConfiguredAdapter<?>> configure(L2AdapterRegistry registry, List<AdapterDeclaration> declarations) {
        List<ConfiguredAdapter<?>> configured = new ArrayList<>();
        for (AdapterDeclaration declaration : declarations) {
            L2AdapterProvider<?> provider = registry.find(declaration.type()).orElseThrow(() -> new DeclarationException(
                    declaration.source(), "unknown adapter type '" + declaration.type() + "'. Known: "
                            + registry.knownTypes()));
            configured.add(ConfiguredAdapter.parse(declaration, provider, registry.reference(declaration.type())));
        }
        return configured;
    }
}
