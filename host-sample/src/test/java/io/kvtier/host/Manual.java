package io.kvtier.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The manual as the tests read it: README.md and docs/*.md of the repository, and their fenced code blocks. */
final class Manual {
    private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})(.*)$");

    /** One fenced code block: its info string ("sh", "hocon", ...; "" when none) and its lines. */
    record Block(String page, int firstLine, String info, List<String> lines) {}

    /** A page's text, under the name it is reported by. */
    record Page(String name, String text) {}

    private Manual() {}

    /** The repository's root: the nearest directory above the working directory with README.md, docs/ and .ci/run. */
    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))
                    && Files.isRegularFile(dir.resolve(".ci/run"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no repository root (README.md, docs/, .ci/run) above " + Path.of("").toAbsolutePath());
    }

    /** README.md, then every docs/*.md, in name order. */
    static List<Page> pages() {
        Path root = root();
        List<Path> paths = new ArrayList<>();
        paths.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(paths::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return paths.stream().map(p -> new Page(root.relativize(p).toString(), read(p))).toList();
    }

    static Page page(String relative) {
        return new Page(relative, read(root().resolve(relative)));
    }

    static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The fenced code blocks of a page. A fence left open, or a fence without an info string (so
     * that a command cannot hide from the checks in a block of no stated language), is reported in
     * {@code problems}.
     */
    static List<Block> blocks(Page page, List<String> problems) {
        List<Block> blocks = new ArrayList<>();
        String[] lines = page.text().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher open = FENCE.matcher(lines[i]);
            if (!open.matches()) {
                continue;
            }
            String fence = open.group(2);
            String info = open.group(3).trim();
            if (info.isEmpty()) {
                problems.add(page.name() + ":" + (i + 1) + ": a code block without a language (```sh, ```hocon, ...)");
            }
            List<String> body = new ArrayList<>();
            int j = i + 1;
            for (; j < lines.length; j++) {
                Matcher close = FENCE.matcher(lines[j]);
                if (close.matches() && close.group(2).charAt(0) == fence.charAt(0)
                        && close.group(2).length() >= fence.length() && close.group(3).isBlank()) {
                    break;
                }
                body.add(lines[j]);
            }
            if (j == lines.length) {
                problems.add(page.name() + ":" + (i + 1) + ": a code block that is never closed");
            }
            blocks.add(new Block(page.name(), i + 2, info, body));
            i = j;
        }
        return blocks;
    }
}
