package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command in the manual (README.md and docs/*.md) runs as written: ManualCommands parses
 * each {@code kvtier} line with the CLI's parser, runs the short ones, validates the declarations
 * of the others, and checks the repository's scripts and Maven lines it names.
 */
class ManualCommandsTest {
    @Test
    void everyCommandOfTheManualParses() {
        ManualCommands commands = new ManualCommands(Manual.root());
        Manual.pages().forEach(commands::check);
        assertThat(commands.problems).as("commands of the manual that do not run as written").isEmpty();
        // Not vacuous: the pages hold dozens of kvtier commands, most of them checked beyond parsing.
        assertThat(commands.checked.stream().filter(c -> c.command().startsWith("kvtier ")).count()).isGreaterThanOrEqualTo(20);
        assertThat(commands.checked).anyMatch(c -> c.how().equals("ran, exit 0"))
                .anyMatch(c -> c.how().equals("parsed, declarations validated"))
                .anyMatch(c -> c.how().equals("exists, knows its options"))
                .anyMatch(c -> c.how().startsWith("modules, files"));
    }

    @Test
    void theManualShowsEveryCommandOfTheCli() {
        ManualCommands commands = new ManualCommands(Manual.root());
        Manual.pages().forEach(commands::check);
        Set<String> cli = new TreeSet<>(new CommandLine(new Main()).getSubcommands().keySet());
        assertThat(commands.subcommands).as("kvtier commands shown in a sh block of the manual").containsAll(cli);
    }

    @Test
    void theReadmesTwoCommandsAreTheOnesCiAndUsersRun() {
        String readme = Manual.page("README.md").text();
        String section = readme.substring(readme.indexOf("## The two commands"));
        section = section.substring(0, section.indexOf("\n## ", 1));
        List<Manual.Block> blocks = Manual.blocks(new Manual.Page("README.md", section), new java.util.ArrayList<>());
        assertThat(blocks).extracting(Manual.Block::lines).containsExactly(
                List.of("mvn -q package -DskipTests && host-sample/bin/kvtier run"),
                List.of("mvn verify"));
        // .ci/run is "the README's test command": the same goal, in batch mode.
        assertThat(Manual.read(Manual.root().resolve(".ci/run")).lines()).contains("mvn -B verify");
    }

    @Test
    void aCommandThatDoesNotRunAsWrittenIsCaught() {
        ManualCommands commands = new ManualCommands(Manual.root());
        commands.check(new Manual.Page("broken.md", String.join("\n",
                "```sh",
                "host-sample/bin/kvtier run --no-such-option",
                "host-sample/bin/kvtier put --in a.bin --model m --kv-rank 0",
                "bin/kvtier validate -c conf/no-such.conf",
                "bin/kvtier run --l2-adapter '{\"type\":\"memory\",\"capacity\":\"lots\"}'",
                "bin/kvtier serve -c conf/mooncake-node.conf --l2-adapter '{\"type\":\"memory\",\"capcity\":1}'",
                "kvtier get --size \"$(stat -c %s a.bin)\" --out b.bin --model m --kv-rank 0 --hash 01",
                "kvtier frobnicate",
                "tools/bench/side-by-side --no-such-flag",
                "tools/cluster/cluster explode demo",
                "tools/bench/no-such-script",
                "mvn -pl no-such-module test",
                "mvn -q -pl host-sample test -Dtest=NoSuchTest",
                "mvn -Pno-such-profile verify",
                "tar -xzf host-sample/target/kvtier-9.9.9.tar.gz",
                "```",
                "```",
                "kvtier run",
                "```",
                "```sh",
                "kvtier run \\")));
        assertThat(commands.problems).hasSize(17);
        assertThat(commands.problems).anySatisfy(p -> assertThat(p).contains("--no-such-option").contains("does not parse"))
                .anySatisfy(p -> assertThat(p).contains("kvtier put").contains("does not parse"))
                .anySatisfy(p -> assertThat(p).contains("conf/no-such.conf is not a file of the repository"))
                .anySatisfy(p -> assertThat(p).contains("lots").contains("do not validate"))
                .anySatisfy(p -> assertThat(p).contains("capcity").contains("do not validate"))
                .anySatisfy(p -> assertThat(p).contains("shell expansion"))
                .anySatisfy(p -> assertThat(p).contains("frobnicate").contains("does not parse"))
                .anySatisfy(p -> assertThat(p).contains("does not know --no-such-flag"))
                .anySatisfy(p -> assertThat(p).contains("does not know the command explode"))
                .anySatisfy(p -> assertThat(p).contains("no-such-script is not an executable file"))
                .anySatisfy(p -> assertThat(p).contains("no module no-such-module"))
                .anySatisfy(p -> assertThat(p).contains("no test class NoSuchTest"))
                .anySatisfy(p -> assertThat(p).contains("no profile no-such-profile"))
                .anySatisfy(p -> assertThat(p).contains("version 9.9.9"))
                .anySatisfy(p -> assertThat(p).contains("without a language"))
                .anySatisfy(p -> assertThat(p).contains("never closed"))
                .anySatisfy(p -> assertThat(p).contains("line continuation"));
    }
}
