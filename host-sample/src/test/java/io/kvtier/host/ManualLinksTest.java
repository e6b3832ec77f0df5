package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The manual's links lead somewhere: every relative link to a file that exists, and to a heading it has. */
class ManualLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern FENCED = Pattern.compile("(?ms)^\\s*(```|~~~).*?^\\s*\\1\\s*$");
    private static final Pattern DOCS_PAGE = Pattern.compile("\\bdocs/[A-Za-z0-9_\\-/]+\\.md\\b");

    @Test
    void everyLinkOfTheManualResolves() {
        Path root = Manual.root();
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Manual.Page page : Manual.pages()) {
            links += LINK.matcher(page.text()).results().count();
            broken.addAll(brokenLinks(root.resolve(page.name()), page.text()));
        }
        assertThat(broken).as("links of the manual that lead nowhere").isEmpty();
        assertThat(links).as("links checked").isGreaterThan(20);
    }

    @Test
    void nothingInTheTreeNamesAPageTheManualDoesNotHave() throws IOException {
        Path root = Manual.root();
        List<String> stale = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile)
                    .filter(p -> !root.relativize(p).toString().startsWith(".git"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .filter(p -> p.toString().matches(".*\\.(md|java|xml|py|sh|cmake|txt|h|cpp|c|conf)$")
                            || Files.isExecutable(p))
                    .toList();
        }
        for (Path file : files) {
            String text;
            try {
                text = Files.readString(file);
            } catch (MalformedInputException e) {
                continue;  // not text
            }
            Matcher m = DOCS_PAGE.matcher(text);
            while (m.find()) {
                if (!Files.isRegularFile(root.resolve(m.group()))) {
                    stale.add(root.relativize(file) + ": " + m.group());
                }
            }
        }
        assertThat(stale).as("files naming a docs/ page that does not exist").isEmpty();
    }

    @Test
    void aBrokenLinkOrAnchorIsCaught() {
        Path page = Manual.root().resolve("docs").resolve("broken.md");
        List<String> broken = brokenLinks(page, String.join("\n",
                "# Broken",
                "[gone](no-such-page.md), [nowhere](cli.md#no-such-heading), [here](#broken), [ok](cli.md#serve),",
                "[web](https://example.com/x), [own](#no-such-section)",
                "```sh",
                "echo [not a link](nowhere.md)",
                "```"));
        assertThat(broken).hasSize(3);
        assertThat(broken).anySatisfy(b -> assertThat(b).contains("no-such-page.md"))
                .anySatisfy(b -> assertThat(b).contains("cli.md#no-such-heading"))
                .anySatisfy(b -> assertThat(b).contains("#no-such-section"));
    }

    @Test
    void anchorsAreGithubsHeadingIds() {
        assertThat(anchors("## `mooncake_store`\n## Against a real Mooncake, in five steps\n## Tests and CI\n## Tests and CI\n"))
                .containsExactly("mooncake_store", "against-a-real-mooncake-in-five-steps", "tests-and-ci", "tests-and-ci-1");
    }

    static List<String> brokenLinks(Path page, String text) {
        List<String> broken = new ArrayList<>();
        Matcher m = LINK.matcher(FENCED.matcher(text).replaceAll(""));
        while (m.find()) {
            String target = m.group(1);
            if (target.matches("^[a-z]+:.*")) {
                continue;  // https:, mailto:
            }
            int hash = target.indexOf('#');
            String file = hash < 0 ? target : target.substring(0, hash);
            String anchor = hash < 0 ? null : target.substring(hash + 1);
            Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
            String where = Manual.root().relativize(page) + ": " + target;
            if (!file.isEmpty() && !Files.exists(resolved)) {
                broken.add(where + ": no such file");
            } else if (anchor != null && resolved.toString().endsWith(".md")) {
                String headings = resolved.equals(page) ? text : Manual.read(resolved);
                if (!anchors(headings).contains(anchor)) {
                    broken.add(where + ": no such heading");
                }
            }
        }
        return broken;
    }

    /** GitHub's ids of a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
    static List<String> anchors(String markdown) {
        List<String> ids = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : FENCED.matcher(markdown).replaceAll("").split("\n")) {
            if (!line.matches("^#{1,6} .*")) {
                continue;
            }
            String id = line.replaceFirst("^#+ ", "").strip().toLowerCase()
                    .replaceAll("[^\\p{L}\\p{N}\\- _]", "").replace(' ', '-');
            int n = seen.merge(id, 1, Integer::sum);
            ids.add(n == 1 ? id : id + "-" + (n - 1));
        }
        return ids;
    }
}
