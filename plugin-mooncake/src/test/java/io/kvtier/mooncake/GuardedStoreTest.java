package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.NOT_DELIVERED;
import static io.kvtier.mooncake.Fixtures.SIZE;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.config.ReplicateConfig;
import io.kvtier.mooncake.deadline.SliceGuard;
import io.kvtier.mooncake.lanes.LaneTask;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ObjectKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kvt_store's guard, through the double with two storage nodes, of which "a" stands for this
 * client's own segment (it declares a global_segment_size): key 0's replica is placed on a, key
 * 1's on b. A guarded store of one replica goes in Mooncake's three steps
 * (native/src/store_path.cpp): the start places the replicas ("put 2" in the double's record), the
 * connector copies key 0's slice under the guard straight into its replica on a, and the end makes
 * the object; key 1's is copied into staging, its put revoked, and put again through Mooncake's put
 * ("put 1"). The guard is a {@link LaneTask}'s, as in the adapter.
 */
class GuardedStoreTest {
    private final List<ObjectKey> keys = Fixtures.keys(0, 2);
    private final long[] sizes = {SIZE, SIZE};
    private final OffHeapRegion l1 = new OffHeapRegion(2 * SIZE);
    private final LaneTask task = openGuard();
    private MooncakeClient client;
    @TempDir
    Path dir;
    private Path calls;

    @BeforeEach
    void open() {
        calls = dir.resolve("calls");
        client = open(Map.of("global_segment_size", String.valueOf(64L << 20)));
        Fixtures.filled(l1, 2, 7);
    }

    private MooncakeClient open(Map<String, String> segment) {
        Map<String, String> body = new HashMap<>(segment);
        body.putAll(Map.of("testdouble_nodes", "a,b", "testdouble_local_node", "a", "testdouble_calls_file", calls.toString(),
                "local_hostname", "127.0.0.1", "metadata_server", "P2PHANDSHAKE",
                "master_server_addr", "guarded-store-" + UUID.randomUUID() + ":1"));
        return MooncakeClient.open(TestDouble.binding(), body, Duration.ofSeconds(5), 1);
    }

    private List<String> puts() {
        return TestDouble.calls(calls).stream().filter(line -> line.contains(" put ")).map(line -> line.replaceFirst("^\\d+ ", ""))
                .toList();
    }

    @AfterEach
    void close() {
        client.close();
    }

    private static LaneTask openGuard() {
        return new LaneTask(guard -> BatchResult.empty(), () -> null);
    }

    private long[] store(SliceGuard guard, int replicas) {
        return client.store(keys, null, new long[] {l1.address, l1.address + SIZE}, sizes,
                new ReplicateConfig(replicas, ReplicateConfig.UNSET), guard);
    }

    private void assertBothKeysHoldTheirObjects() {
        OffHeapRegion read = new OffHeapRegion(2 * SIZE);
        assertThat(client.load(keys, null, new long[] {read.address, read.address + SIZE}, sizes, SliceGuard.ALWAYS).results())
                .containsExactly(SIZE, SIZE);
        assertThat(read.read(0, SIZE)).isEqualTo(OffHeapRegion.expected(SIZE, 7));
        assertThat(read.read(SIZE, SIZE)).isEqualTo(OffHeapRegion.expected(SIZE, 8));
    }

    @Test
    void theOwnSegmentsKeyIsWrittenInPlaceAndTheOtherPutAgainThroughMooncakesPut() {
        assertThat(store(task, 1)).containsExactly(0, 0);
        assertThat(puts()).containsExactly("put 2", "put 1");
        assertBothKeysHoldTheirObjects();
    }

    @Test
    void aClientWithoutASegmentOfItsOwnStoresThroughMooncakesPut() {
        client.close();
        client = open(Map.of());
        assertThat(store(task, 1)).containsExactly(0, 0);
        assertThat(puts()).containsExactly("put 2");
        assertBothKeysHoldTheirObjects();
    }

    /** Had the puts the closed guard refused been left behind, the store after would find the keys taken. */
    @Test
    void onceTheGuardIsClosedNoKeyIsStoredAndNoPutIsLeftBehind() {
        task.expire(BatchResult::empty);
        assertThat(store(task, 1)).containsExactly(NOT_DELIVERED, NOT_DELIVERED);
        assertThat(puts()).as("the puts began, and none was put again").containsExactly("put 2");
        assertThat(client.lookup(keys)).containsExactly(0, 0);

        assertThat(store(openGuard(), 1)).containsExactly(0, 0);
        assertThat(client.lookup(keys)).containsExactly(1, 1);
        assertBothKeysHoldTheirObjects();
    }

    @Test
    void whileTheGuardIsHeldThePutsWaitToCopyAndNoObjectExists() throws Exception {
        assertThat(task.enter()).isTrue();
        CompletableFuture<long[]> storing = CompletableFuture.supplyAsync(() -> store(task, 1));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (TestDouble.calls(calls).stream().noneMatch(line -> line.endsWith(" put 2"))) {
            assertThat(System.nanoTime()).as("the puts began").isLessThan(deadline);
            Thread.onSpinWait();
        }
        assertThat(client.lookup(keys)).containsExactly(0, 0);
        assertThat(storing).isNotDone();
        task.exit();
        assertThat(storing.get(30, TimeUnit.SECONDS)).containsExactly(0, 0);
        assertBothKeysHoldTheirObjects();
    }

    /** Two replicas go through Mooncake's put, which may drop a key's replicas: copied into staging first, or not begun. */
    @Test
    void aStoreOfTwoReplicasCopiesIntoStagingBeforeItsPutBegins() {
        task.expire(BatchResult::empty);
        assertThat(store(task, 2)).containsExactly(NOT_DELIVERED, NOT_DELIVERED);
        assertThat(puts()).isEmpty();

        assertThat(store(openGuard(), 2)).containsExactly(0, 0);
        assertBothKeysHoldTheirObjects();
    }
}
