package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster harness itself: a partition really drops the host's traffic, silently and both
 * ways, a heal restores it, a flapping link alternates, a killed host's process is gone, and
 * nothing of a cluster (namespace, link, process) outlives close() or a crashed owner.
 */
@ExtendWith(ClusterAvailable.class)
class RealClusterTest {
    /** The exit status of {@code timeout}: the connection neither succeeded nor was refused in time. */
    private static final int SILENT = 124;
    private static final int REFUSED = 1;
    private static final int CONNECTED = 0;
    private static final int CLOSED_PORT = 9;

    /** Kept when a test fails, for its keys to be traced in the master's and the nodes' logs. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path logs;

    /** Opens a TCP connection from one host to an address, within 2 s; the exit status says how it went. */
    private static int connect(Cluster cluster, int from, String address) throws IOException, InterruptedException {
        String[] hostPort = address.split(":");
        return cluster.exec(from, "timeout", "2", "bash", "-c",
                "exec 3<>/dev/tcp/" + hostPort[0] + "/" + hostPort[1]);
    }

    @Test
    void aPartitionDropsTrafficSilentlyBothWaysAndHealRestoresIt() throws Exception {
        try (Cluster cluster = Cluster.up(3, logs)) {
            String master = cluster.startMaster(0);
            String closedOnHost1 = cluster.address(1) + ":" + CLOSED_PORT;
            assertThat(connect(cluster, 1, master)).as("host 1 -> master before").isEqualTo(CONNECTED);
            assertThat(connect(cluster, 0, closedOnHost1)).as("host 0 -> a closed port of host 1 before").isEqualTo(REFUSED);

            cluster.partition(1);
            assertThat(connect(cluster, 1, master)).as("host 1 -> master, partitioned").isEqualTo(SILENT);
            assertThat(connect(cluster, 0, closedOnHost1)).as("host 0 -> host 1, partitioned: no reset comes back")
                    .isEqualTo(SILENT);
            assertThat(connect(cluster, 2, master)).as("host 2 -> master while host 1 is partitioned").isEqualTo(CONNECTED);

            cluster.heal(1);
            assertThat(connect(cluster, 1, master)).as("host 1 -> master, healed").isEqualTo(CONNECTED);
            assertThat(connect(cluster, 0, closedOnHost1)).as("host 0 -> host 1, healed").isEqualTo(REFUSED);

            for (Cluster.Direction direction : Cluster.Direction.values()) {
                cluster.oneway(1, direction);
                assertThat(connect(cluster, 1, master)).as("host 1 -> master, one way %s cut", direction).isEqualTo(SILENT);
                assertThat(connect(cluster, 2, master)).as("host 2 -> master, host 1 cut %s", direction).isEqualTo(CONNECTED);
                cluster.heal(1);
                assertThat(connect(cluster, 1, master)).as("host 1 -> master, healed after %s", direction).isEqualTo(CONNECTED);
            }
        }
    }

    @Test
    void aFlappingLinkAlternatesUntilHealed() throws Exception {
        try (Cluster cluster = Cluster.up(2, logs)) {
            String master = cluster.startMaster(0);
            cluster.flap(1, Duration.ofSeconds(3));
            assertThat(connect(cluster, 1, master)).as("cut at once").isEqualTo(SILENT);
            awaitConnect(cluster, master, CONNECTED, Duration.ofSeconds(8));
            awaitConnect(cluster, master, SILENT, Duration.ofSeconds(8));
            cluster.heal(1);
            assertThat(connect(cluster, 1, master)).as("healed: flapping stopped").isEqualTo(CONNECTED);
            assertThat(connect(cluster, 1, master)).as("still healed").isEqualTo(CONNECTED);
        }
    }

    private static void awaitConnect(Cluster cluster, String master, int wanted, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        int got;
        while ((got = connect(cluster, 1, master)) != wanted) {
            assertThat(System.nanoTime()).as("connect status %d within %s (last %d)", wanted, within, got).isLessThan(deadline);
        }
    }

    @Test
    void aKilledHostProcessIsGoneAndCloseLeavesNothingBehind() throws Exception {
        String name;
        long masterPid;
        try (Cluster cluster = Cluster.up(2, logs)) {
            name = cluster.name();
            String master = cluster.startMaster(0);
            masterPid = pidsOn(cluster, 0).get(0);
            cluster.signal(0, "KILL");
            awaitExit(masterPid, "the master after KILL");
            assertThat(connect(cluster, 1, master)).as("host 1 -> a killed master").isEqualTo(REFUSED);
            cluster.startMaster(0);
            masterPid = pidsOn(cluster, 0).get(0);
        }
        awaitExit(masterPid, "the master after close()");
        assertThat(output("ip", "netns", "list")).as("namespaces after close()").doesNotContain("kvt-" + name + "-");
        assertThat(output("ip", "-o", "link")).as("links after close()").doesNotContain("kvt-" + name + "-");
        assertThat(Path.of("/tmp/kvtier-cluster", name)).as("state after close()").doesNotExist();
    }

    @Test
    void theNextClusterRemovesOneWhoseOwnerDied() throws Exception {
        Process owner = new ProcessBuilder("true").start();
        owner.waitFor();
        String script = Cluster.SCRIPT.toString();
        assertThat(new ProcessBuilder(script, "up", "crashed", "2", Long.toString(owner.pid())).inheritIO().start().waitFor()).isZero();
        assertThat(output("ip", "netns", "list")).contains("kvt-crashed-h1");
        try (Cluster cluster = Cluster.up(1, logs)) {
            assertThat(output("ip", "netns", "list")).as("namespaces of a cluster whose owner died")
                    .doesNotContain("kvt-crashed-").contains("kvt-" + cluster.name() + "-h0");
            assertThat(output("ip", "-o", "link")).doesNotContain("kvt-crashed-");
        }
    }

    private static void awaitExit(long pid, String what) throws Exception {
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isPresent()) {
            assertThat(process.get().onExit()).as(what + " (PID " + pid + ")").succeedsWithin(Duration.ofSeconds(5));
        }
    }

    private static List<Long> pidsOn(Cluster cluster, int host) throws Exception {
        return output(Cluster.SCRIPT.toString(), "pids", cluster.name(), Integer.toString(host)).lines()
                .map(Long::parseLong).toList();
    }

    private static String output(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
        return out;
    }
}
