package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kvtier-<version>.tar.gz, unpacked away from the source tree, runs as it is. */
class DistributionTest {
    static final Path TARBALL = Artifacts.TARBALL;

    @Test
    void theUnpackedDistributionHasItsLayoutAndRunsTheWorkload(@TempDir Path dir) throws Exception {
        HostProcess kvtier = HostProcess.unpack(TARBALL, dir);
        Path home = dir.resolve("kvtier-" + System.getProperty("kvtier.version", "0.1.0-SNAPSHOT"));
        assertThat(home.resolve("bin/kvtier")).isExecutable();
        assertThat(home.resolve("README.md")).isRegularFile();
        assertThat(home.resolve("conf/mooncake-tcp.conf")).isRegularFile();
        try (Stream<Path> plugin = Files.list(home.resolve("plugins/mooncake_store"))) {
            assertThat(plugin.map(jar -> jar.getFileName().toString()).toList())
                    .singleElement().satisfies(jar -> assertThat(jar).startsWith("kvtier-plugin-mooncake"));
        }

        HostProcess.Result run = kvtier.kvtier("run", "--chunks", "32", "--chunk-size", "64 KiB");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("memory (memory)", "PASSED");
    }

    @Test
    void theManualsReplayRunsFromTheUnpackedDistributionAndWritesNothingIntoIt(@TempDir Path dir) throws Exception {
        HostProcess kvtier = HostProcess.unpack(TARBALL, dir);
        Path home = dir.resolve("kvtier-" + System.getProperty("kvtier.version", "0.1.0-SNAPSHOT"));
        assertThat(home.resolve("traces/mooncake-fast25-conversation.jsonl.gz")).isRegularFile();
        HostProcess.Result replay = kvtier.kvtier("replay", "--trace", "traces/mooncake-fast25-conversation.jsonl.gz",
                "--requests", "20", "--block-size", "4 KiB");
        assertThat(replay.exit()).as(replay.err()).isZero();
        assertThat(home.resolve("target")).as("no build directory inside an install").doesNotExist();
    }

    @Test
    void itsIsolatedMooncakePluginRunsOnTheTestDouble(@TempDir Path dir) throws Exception {
        HostProcess kvtier = HostProcess.unpack(TARBALL, dir)
                .withEnv("KVTIER_MOONCAKE_LIBRARY", DropInTest.TEST_DOUBLE.toString());
        assertThat(kvtier.kvtier("adapters").out()).as("the summary comes from the isolated jar's reference.conf")
                .contains("mooncake_store\tmooncake_store: stores KV-cache chunks", "memory\t");
        assertThat(kvtier.kvtier("validate", "-c", "conf/mooncake-lanes.conf").exit()).isZero();
        HostProcess.Result run;
        try (StandInMaster master = new StandInMaster()) {
            run = kvtier.kvtier("run", "--chunks", "16", "--chunk-size", "64 KiB", "--l2-adapter",
                    "{\"type\":\"mooncake_store\",\"local_hostname\":\"127.0.0.1\","
                            + "\"metadata_server\":\"P2PHANDSHAKE\",\"master_server_addr\":\"" + master.address() + "\"}");
        }
        assertThat(run.exit()).as(run.err() + run.out()).isZero();
        assertThat(run.out()).contains("PASSED");
    }
}
