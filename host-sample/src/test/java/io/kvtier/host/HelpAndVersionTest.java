package io.kvtier.host;

import static io.kvtier.host.HostCli.kvtier;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.host.HostCli.Result;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HelpAndVersionTest {
    @ParameterizedTest
    @ValueSource(strings = {"adapters", "validate", "key", "run", "put", "get", "soak", "replay", "serve"})
    void everySubcommandAnswersHelpAndVersion(String command) {
        for (String help : List.of("--help", "-h")) {
            Result r = kvtier(command, help);
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).startsWith("Usage: kvtier " + command + " ").contains("-h, --help", "-V, --version");
            assertThat(r.err()).isEmpty();
        }
        Result viaHelp = kvtier("help", command);
        assertThat(viaHelp.exit()).as(viaHelp.err()).isZero();
        assertThat(viaHelp.out()).isEqualTo(kvtier(command, "--help").out());
        for (String version : List.of("-V", "--version")) {
            Result r = kvtier(command, version);
            assertThat(r.exit()).isZero();
            assertThat(r.out()).isEqualTo("kvtier 0.1.0\n");
        }
    }

    @Test
    void helpOfAnUnknownCommandIsAUsageError() {
        Result r = kvtier("help", "nope");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("kvtier: Unknown subcommand 'nope'");
    }

    /** The root help shows each command's first description line: it must be a whole sentence. */
    @Test
    void theRootHelpListsEveryCommandWithAWholeSentence() {
        Result r = kvtier("--help");
        assertThat(r.exit()).isZero();
        List<String> entries = new ArrayList<>();
        boolean inCommands = false;
        for (String line : r.out().lines().toList()) {
            if (line.equals("Commands:")) {
                inCommands = true;
            } else if (inCommands && line.startsWith("  ") && !line.startsWith("   ")) {
                entries.add(line.strip());
            } else if (inCommands && !entries.isEmpty()) {
                entries.set(entries.size() - 1, entries.get(entries.size() - 1) + " " + line.strip());
            }
        }
        assertThat(entries).extracting(e -> e.split(" ")[0])
                .containsExactly("adapters", "validate", "key", "run", "put", "get", "soak", "replay", "serve", "help");
        assertThat(entries).allSatisfy(e -> assertThat(e).endsWith("."));
    }
}
