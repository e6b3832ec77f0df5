package io.kvtier.host;

import io.kvtier.host.HostCli.Result;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Checks the shell commands of the manual's {@code sh} blocks without a Mooncake: every
 * {@code kvtier} command line parses with the CLI's own parser; the short ones ({@code adapters},
 * {@code validate}, {@code key}, {@code help}, {@code --help}, {@code --version}) run and exit 0;
 * the declarations that the others pass ({@code -c}, {@code --l2-adapter}) validate without a
 * warning; files the repository holds ({@code -c}, {@code --trace}) exist. A script of the
 * repository must exist, be executable and know every {@code --option} given to it; {@code mvn}
 * must name modules, files, profiles and test classes that exist. Other commands (system tools,
 * Mooncake's master) are counted as not checked.
 */
final class ManualCommands {
    /** One command of the manual and how it was checked. */
    record Checked(String where, String command, String how) {}

    private record Word(String text, boolean expanded) {}

    private static final Set<String> SHELL_BLOCKS = Set.of("sh", "bash", "shell");
    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*");
    /** Commands that change nothing and need no store: run as written. */
    private static final Set<String> RUN_AS_WRITTEN = Set.of("adapters", "validate", "key", "help");
    /** Adapter types of the manual that this module does not carry, with where they come from. */
    private static final Map<String, String> TYPES_ELSEWHERE = Map.of(
            "sample_heap", "examples/sample-plugin, a plugin built on its own");
    /** Files only the distribution holds. */
    private static final Set<String> DISTRIBUTION_ONLY = Set.of("bin/mooncake_master");
    /** Build outputs the manual runs, and the source that defines their options. */
    private static final Map<String, String> BUILT = Map.of(
            "plugin-mooncake/target/native-build/kvtier_raw_bench", "native/bench/kvtier_raw_bench.c",
            "plugin-mooncake/target/native-build/kvtier_checksum_bench", "native/bench/checksum_bench.cpp");
    private static final Set<String> MAVEN_FLAGS = Set.of("-q", "-B", "-o", "-am", "-e", "-U");
    private static final Set<String> MAVEN_PHASES = Set.of("clean", "validate", "compile", "test", "package", "verify", "install");
    private static final Pattern DISTRIBUTION_NAME = Pattern.compile("kvtier-(\\d[0-9A-Za-z.\\-]*?)(?=\\.tar\\.gz|/|$)");

    final List<String> problems = new ArrayList<>();
    final List<Checked> checked = new ArrayList<>();
    final Set<String> subcommands = new TreeSet<>();
    private final Path root;
    private final String version;
    private List<String> poms;
    private List<Path> files;

    ManualCommands(Path root) {
        this.root = root;
        this.version = projectVersion(root);
    }

    void check(Manual.Page page) {
        for (Manual.Block block : Manual.blocks(page, problems)) {
            if (!SHELL_BLOCKS.contains(block.info())) {
                continue;
            }
            StringBuilder logical = new StringBuilder();
            int start = block.firstLine();
            for (int i = 0; i < block.lines().size(); i++) {
                String line = block.lines().get(i);
                if (logical.isEmpty()) {
                    start = block.firstLine() + i;
                }
                if (line.endsWith("\\")) {
                    logical.append(line, 0, line.length() - 1).append(' ');
                    continue;
                }
                logical.append(line);
                String text = logical.toString().strip();
                logical.setLength(0);
                if (!text.isEmpty() && !text.startsWith("#")) {
                    line(page.name() + ":" + start, text);
                }
            }
            if (!logical.isEmpty()) {
                problems.add(page.name() + ":" + start + ": a command that ends in a line continuation");
            }
        }
    }

    private void line(String where, String text) {
        List<String> substitutions = new ArrayList<>();
        List<List<Word>> segments;
        try {
            segments = tokenize(text, substitutions);
        } catch (IllegalArgumentException e) {
            problems.add(where + ": `" + text + "`: " + e.getMessage());
            return;
        }
        for (List<Word> segment : segments) {
            command(where, segment);
        }
        for (String inner : substitutions) {
            line(where, inner);
        }
        var names = DISTRIBUTION_NAME.matcher(text);
        while (names.find()) {
            if (!names.group(1).equals(version)) {
                problems.add(where + ": `" + text + "`: names the distribution of version " + names.group(1)
                        + ", but the project's version is " + version);
            }
        }
    }

    private void command(String where, List<Word> words) {
        int first = 0;
        while (first < words.size() && ASSIGNMENT.matcher(words.get(first).text()).matches()) {
            first++;
        }
        List<Word> command = words.subList(first, words.size());
        if (command.isEmpty()) {
            return;
        }
        int launcher = -1;
        for (int i = 0; i < command.size() && launcher < 0; i++) {
            if (!command.get(i).expanded() && isLauncher(command.get(i).text())) {
                launcher = i;
            }
        }
        if (launcher >= 0) {
            kvtier(where, command.subList(launcher + 1, command.size()));
            if (launcher == 0) {
                return;
            }
        }
        List<Word> outer = launcher > 0 ? command.subList(0, launcher) : command;
        String name = outer.get(0).text();
        if (outer.get(0).expanded()) {
            checked.add(new Checked(where, name, "not checked: a command named by a variable"));
        } else if (name.equals("mvn")) {
            maven(where, outer);
        } else if (name.contains("/") && !name.startsWith("/")) {
            script(where, outer);
        } else {
            checked.add(new Checked(where, name, "not checked: a system command"));
        }
    }

    static boolean isLauncher(String word) {
        return word.equals("kvtier") || word.equals("bin/kvtier") || word.endsWith("/bin/kvtier");
    }

    private void kvtier(String where, List<Word> words) {
        String shown = "kvtier " + String.join(" ", words.stream().map(Word::text).toList());
        for (Word word : words) {
            if (word.expanded()) {
                problems.add(where + ": `" + shown + "`: " + word.text() + " is a shell expansion, which no test can check: write the value");
                return;
            }
        }
        List<String> args = words.stream().map(Word::text).toList();
        CommandLine cli = new CommandLine(new Main());
        cli.setExpandAtFiles(false);
        ParseResult parsed;
        try {
            parsed = cli.parseArgs(args.toArray(String[]::new));
        } catch (ParameterException e) {
            problems.add(where + ": `" + shown + "` does not parse: " + e.getMessage());
            return;
        }
        boolean help = false;
        ParseResult leaf = parsed;
        for (ParseResult r = parsed; r != null; r = r.subcommand()) {
            help |= r.isUsageHelpRequested() || r.isVersionHelpRequested();
            leaf = r;
        }
        String sub = parsed.subcommand() == null ? null : parsed.subcommand().commandSpec().name();
        if (sub == null && !help) {
            problems.add(where + ": `" + shown + "` names no command");
            return;
        }
        if (sub != null) {
            subcommands.add(sub);
        }
        List<String> runnable = new ArrayList<>();
        List<String> declarations = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            boolean file = arg.equals("-c") || arg.equals("--config") || arg.equals("--trace");
            if ((file || arg.equals("--l2-adapter")) && i + 1 < args.size()) {
                String value = args.get(i + 1);
                if (file) {
                    // A file of the repository (the distribution's conf/ is the repository's), as the test can open it.
                    Path path = root.resolve(value);
                    if (!Files.isRegularFile(path)) {
                        problems.add(where + ": `" + shown + "`: " + value + " is not a file of the repository");
                        return;
                    }
                    value = path.toString();
                }
                if (!arg.equals("--trace")) {
                    declarations.addAll(List.of(arg, value));
                }
                runnable.addAll(List.of(arg, value));
                i++;
            } else {
                runnable.add(arg);
            }
        }
        if (help || RUN_AS_WRITTEN.contains(sub)) {
            Result r = HostCli.kvtier(runnable.toArray(String[]::new));
            if (r.exit() != 0 || (sub != null && sub.equals("validate") && !r.err().isEmpty())) {
                problems.add(where + ": `" + shown + "` exits " + r.exit() + ": " + r.err().strip());
            } else {
                checked.add(new Checked(where, shown, "ran, exit 0"));
            }
            return;
        }
        for (String type : TYPES_ELSEWHERE.keySet()) {
            if (declarations.stream().anyMatch(d -> d.contains("\"type\":\"" + type + "\""))) {
                checked.add(new Checked(where, shown, "parsed; type " + type + " comes from " + TYPES_ELSEWHERE.get(type)));
                return;
            }
        }
        if (declarations.isEmpty()) {
            checked.add(new Checked(where, shown, "parsed (" + leaf.commandSpec().name() + ", the embedded default)"));
            return;
        }
        List<String> validate = new ArrayList<>(List.of("validate"));
        validate.addAll(declarations);
        Result r = HostCli.kvtier(validate.toArray(String[]::new));
        if (r.exit() != 0 || !r.err().isEmpty()) {
            problems.add(where + ": `" + shown + "`: its declarations do not validate (exit " + r.exit() + "): " + r.err().strip());
        } else {
            checked.add(new Checked(where, shown, "parsed, declarations validated"));
        }
    }

    private void maven(String where, List<Word> words) {
        String shown = String.join(" ", words.stream().map(Word::text).toList());
        List<String> wrong = new ArrayList<>();
        for (int i = 1; i < words.size(); i++) {
            String arg = words.get(i).text();
            String next = i + 1 < words.size() ? words.get(i + 1).text() : "";
            if (arg.equals("-pl")) {
                for (String module : next.split(",")) {
                    if (!Files.isRegularFile(root.resolve(module).resolve("pom.xml"))) {
                        wrong.add("no module " + module);
                    }
                }
                i++;
            } else if (arg.equals("-f")) {
                if (!Files.isRegularFile(root.resolve(next))) {
                    wrong.add("no file " + next);
                }
                i++;
            } else if (arg.startsWith("-P")) {
                String profile = arg.length() > 2 ? arg.substring(2) : next;
                if (arg.length() == 2) {
                    i++;
                }
                if (poms().stream().noneMatch(pom -> pom.contains("<id>" + profile + "</id>"))) {
                    wrong.add("no profile " + profile);
                }
            } else if (arg.startsWith("-Dtest=")) {
                for (String test : arg.substring("-Dtest=".length()).split(",")) {
                    String name = test.split("#")[0];
                    if (!testClassExists(name)) {
                        wrong.add("no test class " + name);
                    }
                }
            } else if (!arg.startsWith("-D") && !MAVEN_FLAGS.contains(arg) && !MAVEN_PHASES.contains(arg)) {
                wrong.add("an argument this check does not know: " + arg);
            }
        }
        if (wrong.isEmpty()) {
            checked.add(new Checked(where, shown, "modules, files, profiles and test classes exist"));
        } else {
            problems.add(where + ": `" + shown + "`: " + String.join("; ", wrong));
        }
    }

    private void script(String where, List<Word> words) {
        String name = words.get(0).text();
        String shown = String.join(" ", words.stream().map(Word::text).toList());
        if (DISTRIBUTION_ONLY.contains(name)) {
            checked.add(new Checked(where, shown, "not checked: only the distribution holds " + name));
            return;
        }
        Path source = root.resolve(BUILT.getOrDefault(name, name));
        if (!BUILT.containsKey(name) && !(Files.isRegularFile(source) && Files.isExecutable(source))) {
            problems.add(where + ": `" + shown + "`: " + name + " is not an executable file of the repository");
            return;
        }
        if (!Files.isRegularFile(source)) {
            problems.add(where + ": `" + shown + "`: its source " + root.relativize(source) + " is missing");
            return;
        }
        String text = Manual.read(source);
        boolean cluster = name.endsWith("tools/cluster/cluster");
        if (cluster && words.size() > 4 && words.get(1).text().equals("exec")) {
            // exec NAME HOST CMD...: CMD is a command of its own, run on the host.
            command(where, words.subList(4, words.size()));
            words = words.subList(0, 4);
        }
        List<String> unknown = new ArrayList<>();
        for (Word word : words.subList(1, words.size())) {
            String arg = word.text();
            if (!word.expanded() && arg.startsWith("--") && arg.length() > 2) {
                String option = arg.split("=", 2)[0];
                if (!text.contains(option) && !text.contains("\"" + option.substring(2) + "\"")) {
                    unknown.add(option);
                }
            }
        }
        if (cluster && words.size() > 1
                && !Pattern.compile("(?m)^  " + Pattern.quote(words.get(1).text()) + " ").matcher(text).find()) {
            unknown.add("the command " + words.get(1).text());
        }
        if (unknown.isEmpty()) {
            checked.add(new Checked(where, shown, "exists, knows its options"));
        } else {
            problems.add(where + ": `" + shown + "`: " + root.relativize(source) + " does not know " + String.join(", ", unknown));
        }
    }

    private List<String> poms() {
        if (poms == null) {
            poms = files().stream().filter(p -> p.getFileName().toString().equals("pom.xml")).map(Manual::read).toList();
        }
        return poms;
    }

    private boolean testClassExists(String name) {
        return files().stream().anyMatch(p -> p.getFileName().toString().equals(name + ".java")
                && root.relativize(p).toString().contains("src/test/java/"));
    }

    /** The repository's files, outside .git and build outputs. */
    private List<Path> files() {
        if (files == null) {
            List<Path> found = new ArrayList<>();
            try {
                Files.walkFileTree(root, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                        return !dir.equals(root) && (name.equals(".git") || name.equals("target"))
                                ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                        found.add(file);
                        return FileVisitResult.CONTINUE;
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            files = found;
        }
        return files;
    }

    private static String projectVersion(Path root) {
        var m = Pattern.compile("<artifactId>kvtier-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Manual.read(root.resolve("pom.xml")));
        if (!m.find()) {
            throw new IllegalStateException("no kvtier-parent version in pom.xml");
        }
        return m.group(1);
    }

    /**
     * Splits a shell line into simple commands (at {@code &&}, {@code ||}, {@code ;}, {@code |},
     * {@code &}), with quotes and escapes removed, redirections and comments dropped. A word with
     * a {@code $} expansion is marked; the text of each {@code $(...)} goes to {@code substitutions}.
     */
    static List<List<Word>> tokenize(String line, List<String> substitutions) {
        List<List<Word>> segments = new ArrayList<>();
        List<Word> current = new ArrayList<>();
        StringBuilder word = null;
        boolean expanded = false;
        boolean redirect = false;
        int n = line.length();
        int i = 0;
        while (i <= n) {
            char c = i < n ? line.charAt(i) : ' ';
            boolean end = i == n;
            if (end || Character.isWhitespace(c) || c == '&' || c == '|' || c == ';' || c == '>' || c == '<') {
                if (word != null) {
                    if (!redirect) {
                        current.add(new Word(word.toString(), expanded));
                    }
                    redirect = false;
                    word = null;
                    expanded = false;
                }
                if (end) {
                    break;
                }
                if (c == '>' || c == '<') {
                    redirect = true;
                    i += i + 1 < n && line.charAt(i + 1) == c ? 2 : 1;
                } else if (c == '&' || c == '|' || c == ';') {
                    if (!current.isEmpty()) {
                        segments.add(current);
                        current = new ArrayList<>();
                    }
                    i += i + 1 < n && line.charAt(i + 1) == c ? 2 : 1;
                } else {
                    i++;
                }
                continue;
            }
            if (word == null) {
                if (c == '#') {
                    break;
                }
                word = new StringBuilder();
            }
            if (c == '\\') {
                if (i + 1 < n) {
                    word.append(line.charAt(i + 1));
                }
                i += 2;
            } else if (c == '\'') {
                int close = line.indexOf('\'', i + 1);
                if (close < 0) {
                    throw new IllegalArgumentException("a ' that is never closed");
                }
                word.append(line, i + 1, close);
                i = close + 1;
            } else if (c == '"') {
                i++;
                while (i < n && line.charAt(i) != '"') {
                    char d = line.charAt(i);
                    if (d == '\\' && i + 1 < n && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
                        word.append(line.charAt(i + 1));
                        i += 2;
                    } else if (d == '$') {
                        i = dollar(line, i, word, substitutions);
                        expanded = true;
                    } else if (d == '`') {
                        throw new IllegalArgumentException("a backquoted command: write $(...)");
                    } else {
                        word.append(d);
                        i++;
                    }
                }
                if (i >= n) {
                    throw new IllegalArgumentException("a \" that is never closed");
                }
                i++;
            } else if (c == '$') {
                i = dollar(line, i, word, substitutions);
                expanded = true;
            } else if (c == '`') {
                throw new IllegalArgumentException("a backquoted command: write $(...)");
            } else {
                word.append(c);
                i++;
            }
        }
        if (!current.isEmpty()) {
            segments.add(current);
        }
        return segments;
    }

    /** Appends the expansion at {@code line[at] == '$'} to {@code word} as written; returns the index after it. */
    private static int dollar(String line, int at, StringBuilder word, List<String> substitutions) {
        int n = line.length();
        if (at + 1 < n && (line.charAt(at + 1) == '(' || line.charAt(at + 1) == '{')) {
            char open = line.charAt(at + 1);
            char close = open == '(' ? ')' : '}';
            int depth = 0;
            for (int j = at + 1; j < n; j++) {
                if (line.charAt(j) == open) {
                    depth++;
                } else if (line.charAt(j) == close && --depth == 0) {
                    if (open == '(') {
                        substitutions.add(line.substring(at + 2, j));
                    }
                    word.append(line, at, j + 1);
                    return j + 1;
                }
            }
            throw new IllegalArgumentException("a $" + open + " that is never closed");
        }
        int j = at + 1;
        while (j < n && (Character.isLetterOrDigit(line.charAt(j)) || line.charAt(j) == '_' || line.charAt(j) == '?')) {
            j++;
        }
        word.append(line, at, j);
        return j;
    }
}
