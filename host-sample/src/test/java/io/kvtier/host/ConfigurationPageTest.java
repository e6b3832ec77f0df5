package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * there, and under the group (#### Basic, Advanced, Ignored) whose {@code ## Group} comment line
 * stands above the key in the reference.conf; and the page documents no type that has no reference.conf.
 */
class ConfigurationPageTest {
    private static final Pattern REFERENCE = Pattern.compile(".*/src/main/resources/kvtier/adapters/([^/]+)/reference\\.conf");
    private static final Pattern TYPE_HEADING = Pattern.compile("^## `([^`]+)`\\s*$");
    /** A group's comment line in a reference.conf, e.g. {@code   ## Advanced: ...}. */
    private static final Pattern REFERENCE_GROUP = Pattern.compile("^\\s*## (\\w+)\\b.*");
    private static final Pattern PAGE_GROUP = Pattern.compile("^#### (\\w+)\\s*$");
    private static final Pattern ROW = Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|\\s*([^|]*?)\\s*\\|.*$");

    /** What one table documents: each key with its default cell, in order, and the group it stands under. */
    record Table(String type, String section, Map<String, String> rows, Map<String, String> groups) {}

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
                .replace("## `memory`", "## `memory_typo`")
                .replace("#### Ignored", "#### Advanced");
        assertThat(broken).isNotEqualTo(page);
        List<String> problems = compare(references, broken);
        assertThat(problems).anySatisfy(p -> assertThat(p).contains("suspect_after_ms").contains("missing"))
                .anySatisfy(p -> assertThat(p).contains("num_workers").contains("`8`").contains("4"))
                .anySatisfy(p -> assertThat(p).contains("tenant_idd").contains("not in"))
                .anySatisfy(p -> assertThat(p).contains("memory_typo"))
                .anySatisfy(p -> assertThat(p).contains("'memory'").contains("no section"))
                .anySatisfy(p -> assertThat(p).contains("`eviction`").contains("#### Advanced").contains("## Ignored"));
        assertThat(problems).hasSize(7);
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
            List<String> lines = readLines(file);
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
                    String group = group(lines, value.origin().lineNumber());
                    if (group == null) {
                        problems.add(file + ":" + value.origin().lineNumber() + ": `" + key + "` stands under no ## group");
                    }
                    if (!rows.containsKey(key)) {
                        problems.add(where + ": `" + key + "` is missing");
                    } else {
                        String pageGroup = table.groups().get(key);
                        if (group != null && !group.equals(pageGroup)) {
                            problems.add(where + ": `" + key + "` is under #### " + pageGroup + ", the reference.conf puts it under ## " + group);
                        }
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

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The group of the last {@code ## Group} line above {@code line} (1-based), or null. */
    private static String group(List<String> lines, int line) {
        for (int i = Math.min(line, lines.size()) - 1; i >= 0; i--) {
            Matcher m = REFERENCE_GROUP.matcher(lines.get(i));
            if (m.matches()) {
                return m.group(1);
            }
        }
        return null;
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
        String group = null;
        for (String line : page.split("\n")) {
            Matcher groupHeading = PAGE_GROUP.matcher(line);
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
                    tables.get(type).put(section, new Table(type, section, new LinkedHashMap<>(), new LinkedHashMap<>()));
                }
                group = null;
            } else if (groupHeading.matches()) {
                group = groupHeading.group(1);
            } else if (type != null && section != null) {
                Matcher row = ROW.matcher(line);
                if (row.matches()) {
                    tables.get(type).get(section).rows().put(row.group(1), row.group(2));
                    tables.get(type).get(section).groups().put(row.group(1), group);
                }
            }
        }
        return tables;
    }
}
