package io.kvtier.mooncake;

import static io.kvtier.mooncake.RoundTripTest.SIZE;
import static io.kvtier.mooncake.SilentNodeTest.PATIENCE;
import static io.kvtier.mooncake.SilentNodeTest.until;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.spi.ObjectKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kvt_probe_node through the double, whose nodes a, b and c hold two replicas of each key (key k
 * on nodes k and k + 1, mod 3): a silent node stays suspect while the workload deletes the key
 * it last read there, because the probe reads another key the master still places on it.
 */
class NodeProbeTest {
    @TempDir
    Path dir;
    private MooncakeClient client;
    private Path silent;
    private Path calls;
    /** The read stuck on the silent node: it must return before the native client is freed. */
    private CompletableFuture<long[]> stuck = CompletableFuture.completedFuture(null);
    private CompletableFuture<Boolean> probe = CompletableFuture.completedFuture(null);

    @AfterEach
    void close() throws Exception {
        Files.deleteIfExists(silent);
        CompletableFuture.allOf(stuck, probe).handle((ok, failed) -> null).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        client.close();
    }

    private long reads() {
        try {
            return Files.readAllLines(calls).stream().filter(line -> line.contains(" get ")).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long[] load(List<ObjectKey> keys) {
        OffHeapRegion target = new OffHeapRegion(keys.size() * SIZE);
        long[] addresses = new long[keys.size()];
        long[] sizes = new long[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            addresses[i] = target.address + (long) i * SIZE;
            sizes[i] = SIZE;
        }
        return client.load(keys, null, addresses, sizes, SliceGuard.ALWAYS);
    }

    /** A client of the double with nodes a, b and c, and keys 0 to 3 stored with two replicas each. */
    private List<ObjectKey> storedOnThreeNodes() {
        silent = dir.resolve("silent");
        calls = dir.resolve("calls");
        client = MooncakeClient.open(TestDouble.binding(), Map.of("local_hostname", "127.0.0.1", "metadata_server",
                "P2PHANDSHAKE", "master_server_addr", "probe-" + UUID.randomUUID() + ":1", "testdouble_nodes", "a,b,c",
                "testdouble_silent_nodes_file", silent.toString(), "testdouble_calls_file", calls.toString()),
                Duration.ofSeconds(5), Duration.ofMillis(100), 1);
        List<ObjectKey> keys = RoundTripTest.keys(0, 4); // key 0 on a and b, key 3 on a and b too
        OffHeapRegion source = new OffHeapRegion(4 * SIZE);
        long[] addresses = new long[4];
        long[] sizes = new long[4];
        for (int i = 0; i < 4; i++) {
            source.fill(i * SIZE, SIZE, i);
            addresses[i] = source.address + (long) i * SIZE;
            sizes[i] = SIZE;
        }
        assertThat(client.store(keys, null, addresses, sizes, new ReplicateConfig(2, ReplicateConfig.UNSET), SliceGuard.ALWAYS))
                .containsOnly(0);
        return keys;
    }

    /** Node a falls silent under a read of key 0, which makes it suspect; key 3 is then read around a, from b. */
    private void silenceAAndReadAroundIt(List<ObjectKey> keys) throws Exception {
        Files.writeString(silent, "a");
        stuck = CompletableFuture.supplyAsync(() -> load(keys.subList(0, 1)));
        until("a to be suspect", () -> Boolean.TRUE.equals(client.nodes().get("a")));
        assertThat(load(keys.subList(3, 4))).as("key 3 read around a, from b").containsExactly(SIZE);
    }

    @Test
    void aSilentNodeStaysSuspectWhenTheKeyLastReadThereIsDeletedAndAnswersOnceHeard() throws Exception {
        List<ObjectKey> keys = storedOnThreeNodes();
        silenceAAndReadAroundIt(keys);
        assertThat(client.delete(keys.subList(0, 1))).containsExactly(0);

        long readsBefore = reads();
        probe = CompletableFuture.supplyAsync(() -> client.probeNode("a"));
        until("the probe to read from a", () -> reads() > readsBefore || probe.isDone());
        assertThat(probe).as("the probe waits on silent a, through key 3").isNotDone();
        assertThat(client.nodes()).containsEntry("a", true);

        Files.delete(silent);
        assertThat(probe.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(stuck.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("key 0 was deleted meanwhile")
                .containsExactly(MooncakeCodes.OBJECT_NOT_FOUND);
        // Only now: a transfer still running past suspect_after_ms marks its node again.
        assertThat(client.nodes()).containsEntry("a", false);
    }

    @Test
    void aSilentNodeWhoseKeysAreAllDeletedStaysSuspectWhileReadsStillMeetItThenIsCleared() throws Exception {
        List<ObjectKey> keys = storedOnThreeNodes();
        silenceAAndReadAroundIt(keys);
        assertThat(client.delete(List.of(keys.get(0), keys.get(3)))).containsExactly(0, 0);

        assertThat(client.probeNode("a")).as("none of a's keys is left, but a read met a just now").isFalse();
        assertThat(client.nodes()).containsEntry("a", true);
        // No read meets a any more, as when the master has dropped a node: a probe then clears it,
        // once the stuck read has returned (while it runs past suspect_after_ms it marks a again).
        Files.delete(silent);
        stuck.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        until("a probe to clear a", () -> client.probeNode("a"));
        assertThat(client.nodes()).containsEntry("a", false);
    }
}
