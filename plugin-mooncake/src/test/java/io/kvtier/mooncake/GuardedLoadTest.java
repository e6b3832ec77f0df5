package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.NOT_DELIVERED;
import static io.kvtier.mooncake.Fixtures.SIZE;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.config.ReplicateConfig;
import io.kvtier.mooncake.deadline.SliceGuard;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kvt_load's guard, through the double with two storage nodes, of which "a" stands for this
 * client's own segment: key 0 lives on a, key 1 on b. A guarded load reads a key on another node
 * into the connector's staging memory and copies it into the caller's buffer under the guard
 * (native/src/staging.h), also a replica outside memory, which the double has when it has no
 * storage nodes. A replica in the own segment, which Mooncake reads with a memcpy it waits for,
 * is read straight into the caller's buffer while the connector holds the guard. An unguarded load
 * reads straight into the buffers. The guard is a {@link LaneTask}'s, as in the adapter.
 */
class GuardedLoadTest {
    private final List<ObjectKey> keys = Fixtures.keys(0, 2);
    private final long[] sizes = {SIZE, SIZE};
    private final OffHeapRegion l1 = new OffHeapRegion(2 * SIZE);
    private final LaneTask task = new LaneTask(guard -> BatchResult.empty(), () -> null);
    private MooncakeClient client;
    @TempDir
    Path dir;
    private Path calls;

    @BeforeEach
    void storeOneKeyOnEachNode() {
        calls = dir.resolve("calls");
        client = storeBothKeys(Map.of("testdouble_nodes", "a,b", "testdouble_local_node", "a",
                "testdouble_calls_file", calls.toString()));
    }

    private MooncakeClient storeBothKeys(Map<String, String> testdouble) {
        return storeBothKeys(testdouble, 1);
    }

    /** Key k's first replica on the double's node k, its others on the next nodes. */
    private MooncakeClient storeBothKeys(Map<String, String> testdouble, int replicas) {
        Map<String, String> body = new HashMap<>(testdouble);
        body.putAll(Map.of("local_hostname", "127.0.0.1", "metadata_server", "P2PHANDSHAKE",
                "master_server_addr", "guarded-" + UUID.randomUUID() + ":1"));
        MooncakeClient client = MooncakeClient.open(TestDouble.binding(), body, Duration.ofSeconds(5), 1);
        OffHeapRegion source = new OffHeapRegion(2 * SIZE);
        Fixtures.filled(source, 2, 7);
        long[] rc = client.store(keys, null, addresses(source), sizes, new ReplicateConfig(replicas, ReplicateConfig.UNSET), SliceGuard.ALWAYS);
        assertThat(rc).containsExactly(0, 0);
        return client;
    }

    @AfterEach
    void close() {
        client.close();
    }

    private static long[] addresses(OffHeapRegion region) {
        return new long[] {region.address, region.address + SIZE};
    }

    private long[] load(SliceGuard guard) {
        return client.load(keys, null, addresses(l1), sizes, guard).results();
    }

    private static byte[] object(int key) {
        return OffHeapRegion.expected(SIZE, key + 7);
    }

    @Test
    void bothKeysReachTheirBuffers() {
        assertThat(load(task)).containsExactly(SIZE, SIZE);
        assertThat(l1.read(0, SIZE)).isEqualTo(object(0));
        assertThat(l1.read(SIZE, SIZE)).isEqualTo(object(1));
    }

    @Test
    void onceTheGuardIsClosedNoByteReachesTheBuffersAndTheReadKeysSaySo() {
        task.expire(BatchResult::empty);
        assertThat(task.completed()).isTrue();
        assertThat(load(task)).containsExactly(NOT_DELIVERED, NOT_DELIVERED);
        assertThat(l1.read(0, 2 * SIZE)).isEqualTo(new byte[2 * SIZE]);
    }

    @Test
    void whileTheGuardIsHeldTheConnectorWaitsToWriteTheBuffers() throws Exception {
        assertThat(task.enter()).isTrue();
        CompletableFuture<long[]> loading = CompletableFuture.supplyAsync(() -> load(task));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        // The remote key's transfer runs (the double records it) and waits to write its buffer.
        while (!Files.readString(calls).contains(" get 1")) {
            assertThat(System.nanoTime()).as("the remote key's transfer began").isLessThan(deadline);
            Thread.onSpinWait();
        }
        assertThat(l1.read(0, 2 * SIZE)).as("nothing written while the guard is held").isEqualTo(new byte[2 * SIZE]);
        assertThat(loading).isNotDone();
        task.exit();
        assertThat(loading.get(30, TimeUnit.SECONDS)).containsExactly(SIZE, SIZE);
        assertThat(l1.read(0, SIZE)).isEqualTo(object(0));
        assertThat(l1.read(SIZE, SIZE)).isEqualTo(object(1));
    }

    /** Read in place, the own segment's replica is read only while the guard is held: once it is closed, not at all. */
    @Test
    void theOwnSegmentsReplicaIsNotReadOnceTheGuardIsClosed() throws Exception {
        task.expire(BatchResult::empty);
        assertThat(load(task)).containsExactly(NOT_DELIVERED, NOT_DELIVERED);
        assertThat(TestDouble.calls(calls).stream().filter(line -> line.contains(" get ")))
                .as("only the other node's key was read, into staging").singleElement().matches(line -> line.endsWith(" get 1"));
        assertThat(l1.read(0, 2 * SIZE)).isEqualTo(new byte[2 * SIZE]);
    }

    /**
     * A replica in the own segment that fails its checksum, read in place, is read again from the
     * next node through staging, and the caller's buffer ends up with the object. Key 0's replicas
     * are on a, then b.
     */
    @Test
    void aCorruptedReplicaInTheOwnSegmentIsReadAgainFromTheNextNode() {
        try (MooncakeClient corrupt = storeBothKeys(Map.of("testdouble_nodes", "a,b", "testdouble_local_node", "a",
                "testdouble_corrupt_node", "a"), 2)) {
            assertThat(corrupt.load(keys.subList(0, 1), null, new long[] {l1.address}, new long[] {SIZE}, task).results())
                    .containsExactly(SIZE);
            assertThat(l1.read(0, SIZE)).isEqualTo(object(0));
        }
    }

    @Test
    void anUnguardedLoadReadsEveryKeyStraightIntoItsBuffer() {
        assertThat(client.load(keys, null, addresses(l1), sizes, SliceGuard.ALWAYS).results()).containsExactly(SIZE, SIZE);
        assertThat(l1.read(0, SIZE)).isEqualTo(object(0));
        assertThat(l1.read(SIZE, SIZE)).isEqualTo(object(1));
    }

    @Test
    void replicasOutsideMemoryAreCopiedInWhileTheGuardIsOpenAndNotOnceItIsClosed() {
        try (MooncakeClient noNodes = storeBothKeys(Map.of())) {
            assertThat(noNodes.load(keys, null, addresses(l1), sizes, task).results()).containsExactly(SIZE, SIZE);
            assertThat(l1.read(0, SIZE)).isEqualTo(object(0));
            assertThat(l1.read(SIZE, SIZE)).isEqualTo(object(1));

            OffHeapRegion later = new OffHeapRegion(2 * SIZE);
            task.expire(BatchResult::empty);
            assertThat(noNodes.load(keys, null, addresses(later), sizes, task).results()).containsExactly(NOT_DELIVERED, NOT_DELIVERED);
            assertThat(later.read(0, 2 * SIZE)).isEqualTo(new byte[2 * SIZE]);
        }
    }

    /**
     * A transfer Mooncake reported failed that delivers its bytes afterwards (the double's late
     * bytes land at the end of the client's next read call, as seen on a flapping link) writes the
     * connector's staging memory of its call, kept out of use: neither the failed call's slice, which
     * the caller has reused, nor the next call's, which reads into fresh staging memory.
     */
    @Test
    void bytesOfAFailedTransferThatLandLateReachNoSlice() {
        try (MooncakeClient late = storeBothKeys(Map.of("testdouble_nodes", "a,b",
                "testdouble_late_bytes_keys", keys.get(1).wireString()))) {
            OffHeapRegion first = new OffHeapRegion(SIZE);
            long[] one = {SIZE};
            assertThat(late.load(keys.subList(1, 2), null, new long[] {first.address}, one, task).results())
                    .containsExactly(MooncakeCodes.TRANSFER_FAIL);
            first.fill(0, SIZE, 99); // the caller reuses the slice of the failed key

            OffHeapRegion second = new OffHeapRegion(SIZE);
            assertThat(late.load(keys.subList(1, 2), null, new long[] {second.address}, one, task).results())
                    .as("read again: the late bytes of the first read land at the end of this call").containsExactly(SIZE);
            assertThat(first.read(0, SIZE)).isEqualTo(OffHeapRegion.expected(SIZE, 99));
            assertThat(second.read(0, SIZE)).isEqualTo(object(1));
        }
    }
}
