package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.SIZE;
import static io.kvtier.mooncake.SilentNodeTest.PATIENCE;
import static io.kvtier.mooncake.SilentNodeTest.until;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.config.ReplicateConfig;
import io.kvtier.mooncake.deadline.SliceGuard;
import io.kvtier.mooncake.health.StorageNodes;
import io.kvtier.mooncake.health.Timings;
import io.kvtier.mooncake.lanes.LaneTask;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ObjectKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StorageNodes} over the double, whose nodes a, b and c hold two replicas of each key (key k
 * on nodes k and k + 1, mod 3): a silent node stays suspect while the workload deletes the key
 * it last read there, because the probe reads another key the master still places on it. The
 * model's clock is the test's, for how long ago a read met a node.
 */
class NodeProbeTest {
    @TempDir
    Path dir;
    private MooncakeClient client;
    private Path silent;
    private Path calls;
    /** The read stuck on the silent node: it must return before the native client is freed. */
    private CompletableFuture<long[]> stuck = CompletableFuture.completedFuture(null);
    private CompletableFuture<Void> probe = CompletableFuture.completedFuture(null);
    private final AtomicLong now = new AtomicLong();
    private StorageNodes nodes;

    @AfterEach
    void close() throws Exception {
        Files.deleteIfExists(silent);
        CompletableFuture.allOf(stuck, probe).handle((ok, failed) -> null).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        client.close();
    }

    private long reads() {
        return TestDouble.calls(calls).stream().filter(line -> line.contains(" get ")).count();
    }

    private long[] load(List<ObjectKey> keys) {
        OffHeapRegion target = new OffHeapRegion(keys.size() * SIZE);
        long[] addresses = new long[keys.size()];
        long[] sizes = new long[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            addresses[i] = target.address + (long) i * SIZE;
            sizes[i] = SIZE;
        }
        List<String> wireKeys = keys.stream().map(ObjectKey::wireString).toList();
        long started = nodes.now();
        MooncakeClient.Loaded loaded = client.load(keys, null, addresses, sizes, SliceGuard.ALWAYS);
        nodes.loaded(wireKeys, loaded, started);
        return loaded.results();
    }

    private StorageNodes.State a() {
        return nodes.states().get("a");
    }

    /** A client of the double with nodes a, b and c, and keys 0 to 3 stored with two replicas each. */
    private List<ObjectKey> storedOnThreeNodes() {
        return storedOnThreeNodes(Map.of());
    }

    /** As above, with the double's {@code options} too. */
    private List<ObjectKey> storedOnThreeNodes(Map<String, String> options) {
        silent = dir.resolve("silent");
        calls = dir.resolve("calls");
        Map<String, String> config = new HashMap<>(options);
        config.putAll(Map.of("local_hostname", "127.0.0.1", "metadata_server", "P2PHANDSHAKE", "master_server_addr",
                "probe-" + UUID.randomUUID() + ":1", "testdouble_nodes", "a,b,c", "testdouble_silent_nodes_file",
                silent.toString(), "testdouble_calls_file", calls.toString()));
        client = MooncakeClient.open(TestDouble.binding(), config, Duration.ofSeconds(5), 1);
        nodes = new StorageNodes(StorageNodes.Connector.over(client), 100, Timings.DEFAULTS, now::get, (n, state, why) -> { });
        List<ObjectKey> keys = Fixtures.keys(0, 4); // key 0 on a and b, key 3 on a and b too
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
        until("a to be suspect", () -> {
            nodes.sweep();
            return a() == StorageNodes.State.SUSPECT;
        });
        assertThat(load(keys.subList(3, 4))).as("key 3 read around a, from b").containsExactly(SIZE);
    }

    @Test
    void aSilentNodeStaysSuspectWhenTheKeyLastReadThereIsDeletedAndAnswersOnceHeard() throws Exception {
        List<ObjectKey> keys = storedOnThreeNodes();
        silenceAAndReadAroundIt(keys);
        assertThat(client.delete(keys.subList(0, 1))).containsExactly(0);

        long readsBefore = reads();
        probe = CompletableFuture.runAsync(nodes::probe);
        until("the probe to read from a", () -> reads() > readsBefore || probe.isDone());
        assertThat(probe).as("the probe waits on silent a, through key 3").isNotDone();
        assertThat(a()).isEqualTo(StorageNodes.State.SUSPECT);

        Files.delete(silent);
        probe.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(a()).as("the probe read key 3 from a").isEqualTo(StorageNodes.State.UP);
        assertThat(stuck.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("key 0 was deleted meanwhile")
                .containsExactly(MooncakeCodes.OBJECT_NOT_FOUND);
    }

    @Test
    void aSilentNodeWhoseKeysAreAllDeletedStaysSuspectWhileReadsStillMeetItThenIsCleared() throws Exception {
        List<ObjectKey> keys = storedOnThreeNodes();
        silenceAAndReadAroundIt(keys);
        assertThat(client.delete(List.of(keys.get(0), keys.get(3)))).containsExactly(0, 0);

        nodes.probe();
        assertThat(a()).as("none of a's keys is left, but a read met a just now").isEqualTo(StorageNodes.State.SUSPECT);
        now.addAndGet(Timings.DEFAULTS.metRecently().toNanos() - 1);
        nodes.probe();
        assertThat(a()).as("a read met a just under metRecently ago").isEqualTo(StorageNodes.State.SUSPECT);
        // No read meets a any more, as when the master has dropped a node: a probe then clears it.
        now.addAndGet(1);
        nodes.probe();
        assertThat(a()).isEqualTo(StorageNodes.State.UP);
    }

    @Test
    void aProbeReadThatFailedButStillWritesLateWritesIntoNoLaterLoad() {
        List<ObjectKey> keys = storedOnThreeNodes(Map.of("testdouble_late_bytes_keys", Fixtures.keys(0, 1).get(0).wireString()));
        assertThat(load(keys.subList(3, 4))).as("key 3 read from a, which the client meets so").containsExactly(SIZE);
        int a = IntStream.range(0, 3).filter(id -> client.nodeName(id).equals("a")).findFirst().orElseThrow();

        assertThat(client.probeNode(a, keys.get(0).wireString())).as("the double fails the first read of key 0")
                .isEqualTo(MooncakeClient.ProbeAnswer.UNANSWERED);
        // The double's failed transfer delivers 0xEE bytes into the probe's buffer at the end of the next
        // read call: this guarded load, which reads into staging of the same size. Were the probe's
        // staging reused for it, it would hold them.
        OffHeapRegion target = new OffHeapRegion(SIZE);
        MooncakeClient.Loaded loaded = client.load(keys.subList(3, 4), null, new long[] {target.address}, new long[] {SIZE},
                new LaneTask(guard -> BatchResult.empty(), () -> null));
        assertThat(loaded.results()).containsExactly(SIZE);
        assertThat(target.read(0, SIZE)).as("key 3, whole").isEqualTo(OffHeapRegion.expected(SIZE, 3));
    }

    @Test
    void aReadStuckSinceBeforeANodeWasClearedDoesNotMakeItSuspectAgain() throws Exception {
        List<ObjectKey> keys = storedOnThreeNodes();
        silenceAAndReadAroundIt(keys);
        assertThat(client.delete(List.of(keys.get(0), keys.get(3)))).containsExactly(0, 0);
        now.addAndGet(Timings.DEFAULTS.metRecently().toNanos());
        nodes.probe();
        assertThat(a()).as("the master places none of a's keys there any more").isEqualTo(StorageNodes.State.UP);

        // Mooncake gives up on a transfer stuck since a fault only at its own timeout, long after the
        // node answers again; the double holds it while a is listed silent.
        assertThat(stuck).as("the read of key 0 from a still runs").isNotDone();
        nodes.sweep(); // the first after the clock's jump takes it for a pause of this process, and judges nothing
        nodes.sweep();
        assertThat(a()).as("a read that ran since before a was cleared says nothing of a now")
                .isEqualTo(StorageNodes.State.UP);
        assertThat(client.nodeReads().running()).as("transfers counted, per node").containsOnly(0);
    }
}
