package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mooncake's log in kvtier processes: a storage node's holds no INFO line and stays within
 * KVTIER_MOONCAKE_LOG_MAX while clients transfer through it, and a client that exits normally
 * leaves no log in its temporary directory.
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealMooncakeLogTest {
    private static final long MAX = 64 << 10;

    @Test
    void aNodesLogIsBoundedWithoutInfoLinesAndAClientLeavesNoLog(@TempDir Path dir) throws Exception {
        Path nodeLog = dir.resolve("node.log");
        Path clientTmp = Files.createDirectories(dir.resolve("client-tmp"));
        try (MooncakeMaster master = MooncakeMaster.startOwn(dir)) {
            HostProcess host = HostProcess.installWithMooncakePlugin(dir.resolve("host"))
                    .withEnv("MOONCAKE_MASTER", master.address())
                    .withEnv("KVTIER_MOONCAKE_LOG", nodeLog.toString())
                    .withEnv("KVTIER_MOONCAKE_LOG_MAX", "64 KiB");
            try (ServingHost node = ServingHost.start(host, "-c", "conf/mooncake-node.conf")) {
                assertThat(node.firstLine()).isEqualTo("serving mooncake-node");
                node.http();
                host.withEnv("KVTIER_MOONCAKE_LOG", "").withEnv("KVTIER_JAVA_OPTS", "-Djava.io.tmpdir=" + clientTmp);
                for (int i = 0; i < 3; i++) {
                    HostProcess.Result run = host.kvtier("run", "-c", "conf/mooncake-client.conf", "--chunks", "128",
                            "--chunk-size", "64 KiB", "--passes", "2");
                    assertThat(run.exit()).as(run.err()).isZero();
                }
                ServingHost.Stopped stopped = node.stop("TERM");
                assertThat(stopped.exit()).as(stopped.err()).isZero();
            }
        }
        Path older = Path.of(nodeLog + ".1");
        long bytes = Files.size(nodeLog) + (Files.exists(older) ? Files.size(older) : 0);
        List<String> lines = Stream.concat(Files.readAllLines(nodeLog).stream(),
                Files.exists(older) ? Files.readAllLines(older).stream() : Stream.empty()).toList();
        System.out.printf("[log] node log %d bytes in %d lines, rotated: %s%n", bytes, lines.size(), Files.exists(older));
        assertThat(lines).as("the node's transfers are logged").isNotEmpty();
        assertThat(lines).noneMatch(line -> line.startsWith("I"));
        assertThat(bytes).isLessThanOrEqualTo(MAX + 1024);
        try (Stream<Path> left = Files.list(clientTmp)) {
            assertThat(left).noneMatch(p -> p.getFileName().toString().startsWith("kvtier-mooncake-"));
        }
    }
}
