package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md cannot drift from the reference.conf files: for every adapter type the
 * repository ships (each {@code src/main/resources/kvtier/adapters/<type>/reference.conf} outside
 * examples/), the page's "Options" table lists exactly the keys of {@code options}, its
 * "Pass-through" table exactly the keys of {@code pass-through}, each with the default written
 * there; and the page documents no type that has no reference.conf.
 */
class ConfigurationPageTest {
    private static final Pattern REFERENCE = Pattern.compile(".*/src/main/resources/kvtier/adapters/([^/]+)/reference\\.conf");
    private static final Pattern TYPE_HEADING = Pattern.compile("^## `([^`]+)`\\s*$");
    private static final Pattern ROW = Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|\\s*([^|]*?)\\s*\\|.*$");

    /** What one table documents: each key with its default cell, in order. */
    record Table(String type, String section, Map<String, String> rows) {}

    @Test
    void theConfigurationPageListsEveryOptionOfEveryReferenceConf() throws IOException {
        Map<String, Path> references = references(Manual.root());
        assertThat(references).containsKeys("memory", "mooncake_store");
        List<String> problems = compare(references, Manual.page("docs/configuration.md").text());
        assertThat(problems).as("docs/configuration.md against the reference.conf files").isEmpty();
    }

    @Test
    void aMissingExtraOrChangedOptionIsCaught() throws IOException {
        Map<String, Path> references = references(Manual.root());
        String page = Manual.page("docs/configuration.md").text();
        String broken = page
                .replaceFirst("(?m)^\\| `suspect_after_ms` .*\\n", "")
                .replaceFirst("(?m)^(\\| `num_workers` \\| )`4`", "$1`8`")
                .replaceFirst("(?m)^(\\| `tenant_id` .*\\n)", "$1| `tenant_idd` | `x` | a key of no reference.conf |\n")
                .replace("## `memory`", "## `memory_typo`");
        assertThat(broken).isNotEqualTo(page);
        List<String> problems = compare(references, broken);
        assertThat(problems).anySatisfy(p -> assertThat(p).contains("suspect_after_ms").contains("missing"))
                .anySatisfy(p -> assertThat(p).contains("num_workers").contains("`8`").contains("4"))
                .anySatisfy(p -> assertThat(p).contains("tenant_idd").contains("not in"))
                .anySatisfy(p -> assertThat(p).contains("memory_typo"))
                .anySatisfy(p -> assertThat(p).contains("'memory'").contains("no section"));
        assertThat(problems).hasSize(5);
    }

    /** The reference.conf of every adapter type the repository ships, by type. */
    static Map<String, Path> references(Path root) throws IOException {
        Map<String, Path> found = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(Files::isRegularFile).forEach(p -> {
                String relative = "/" + root.relativize(p);
                Matcher m = REFERENCE.matcher(relative);
                if (m.matches() && !relative.startsWith("/examples/") && !relative.contains("/target/")) {
                    found.put(m.group(1), p);
                }
            });
        }
        return found;
    }

    static List<String> compare(Map<String, Path> references, String page) {
        List<String> problems = new ArrayList<>();
        Map<String, Map<String, Table>> documented = tables(page);
        for (String type : new TreeSet<>(documented.keySet())) {
            if (!references.containsKey(type)) {
                problems.add("## `" + type + "` documents a type that no reference.conf defines");
            }
        }
        references.forEach((type, file) -> {
            ConfigObject reference = ConfigFactory.parseFile(file.toFile(),
                    ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false)).root();
            Map<String, Table> tables = documented.getOrDefault(type, Map.of());
            if (tables.isEmpty()) {
                problems.add("type '" + type + "' (" + file + ") has no section ## `" + type + "`");
                return;
            }
            for (String section : List.of("options", "pass-through")) {
                ConfigValue block = reference.get(section);
                Map<String, ConfigValue> keys = new TreeMap<>();
                if (block instanceof ConfigObject object) {
                    keys.putAll(object);
                }
                Table table = tables.get(section);
                Map<String, String> rows = table == null ? Map.of() : table.rows();
                String where = "## `" + type + "`, " + heading(section);
                if (table == null && !keys.isEmpty()) {
                    problems.add(where + ": missing, but " + file.getFileName() + " has " + keys.keySet());
                    continue;
                }
                keys.forEach((key, value) -> {
                    if (!rows.containsKey(key)) {
                        problems.add(where + ": `" + key + "` is missing");
                    } else {
                        String expected = render(value);
                        String cell = rows.get(key);
                        if (expected != null && !cell.equals("`" + expected + "`")) {
                            problems.add(where + ": `" + key + "` has the default " + cell + ", the reference.conf " + expected);
                        }
                    }
                });
                rows.keySet().stream().filter(key -> !keys.containsKey(key))
                        .forEach(key -> problems.add(where + ": `" + key + "` is not in " + section + " of " + file));
            }
        });
        return problems;
    }

    private static String heading(String section) {
        return section.equals("options") ? "### Options" : "### Pass-through";
    }

    /** A default as the page writes it inside backticks; null for an object or list, whose cell is prose. */
    static String render(ConfigValue value) {
        return switch (value.valueType()) {
            case NULL -> "null";
            case STRING -> ((String) value.unwrapped()).isEmpty() ? "\"\"" : (String) value.unwrapped();
            case NUMBER, BOOLEAN -> String.valueOf(value.unwrapped());
            default -> null;
        };
    }

    /** The page's tables, by type (## `type`) and section (### Options, ### Pass-through). */
    static Map<String, Map<String, Table>> tables(String page) {
        Map<String, Map<String, Table>> tables = new LinkedHashMap<>();
        String type = null;
        String section = null;
        for (String line : page.split("\n")) {
            Matcher heading = TYPE_HEADING.matcher(line);
            if (heading.matches()) {
                type = heading.group(1);
                section = null;
                tables.put(type, new LinkedHashMap<>());
            } else if (line.startsWith("## ")) {
                type = null;
                section = null;
            } else if (line.startsWith("### ")) {
                String title = line.substring(4).strip();
                section = title.equals("Options") ? "options" : title.equals("Pass-through") ? "pass-through" : null;
                if (type != null && section != null) {
                    tables.get(type).put(section, new Table(type, section, new LinkedHashMap<>()));
                }
            } else if (type != null && section != null) {
                Matcher row = ROW.matcher(line);
                if (row.matches()) {
                    tables.get(type).get(section).rows().put(row.group(1), row.group(2));
                }
            }
        }
        return tables;
    }
}
