package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.SIZE;
import static io.kvtier.mooncake.Fixtures.await;
import static io.kvtier.mooncake.Fixtures.empty;
import static io.kvtier.mooncake.Fixtures.filled;
import static io.kvtier.mooncake.Fixtures.keys;
import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A storage node that goes silent, as a partitioned host does, modelled by the double: three nodes
 * a, b and c, where the k-th key stored lands on nodes k, k+1, ... (mod 3), and a node listed in
 * a file hangs every transfer to or from it until it is unlisted.
 */
class SilentNodeTest {
    /**
     * Every batch's deadline: the batches that must not wait on a silent node finish well within
     * it, on a loaded machine too (at 300 ms a store of three keys once missed it while a cluster
     * test ran beside), and each test that waits one out waits it once or twice.
     */
    private static final long TIMEOUT_MS = 1000;
    /**
     * A batch completes at its deadline; how much later its caller sees it depends on the machine
     * (a loaded one, a JIT pause), so the bound past the deadline is one-sided and generous.
     */
    private static final long BOUND_MS = TIMEOUT_MS + 10_000;
    static final Duration PATIENCE = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private Path silent;
    private final String master = "double-" + UUID.randomUUID() + ":1";
    private final MetricRegistry metrics = new MetricRegistry();
    private final List<MooncakeStoreAdapter> adapters = new ArrayList<>();

    @AfterEach
    void heal() throws IOException {
        Files.deleteIfExists(silent);
        adapters.forEach(MooncakeStoreAdapter::close);
    }

    private MooncakeStoreAdapter adapter(Object... extra) {
        silent = dir.resolve("silent-nodes");
        List<Object> body = new ArrayList<>(List.of("master_server_addr", master, "testdouble_nodes", "a,b,c",
                "testdouble_silent_nodes_file", silent.toString(), "batch_timeout_ms", TIMEOUT_MS,
                "suspect_after_ms", 100));
        body.addAll(Arrays.asList(extra));
        MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(), TestDouble.body(body.toArray()),
                TestDouble.context("mc", metrics, Optional.empty()));
        adapters.add(adapter);
        return adapter;
    }

    private void silence(String node) throws IOException {
        Files.writeString(silent, node);
    }

    private void unsilence() throws IOException {
        Files.delete(silent);
    }

    /** Stores keys 0..count-1 in one batch: key k lands on nodes a, b, c, a, ... from k on. */
    private OffHeapRegion storeKeys(MooncakeStoreAdapter adapter, int count) {
        OffHeapRegion source = new OffHeapRegion(count * SIZE);
        assertThat(await(adapter.store(keys(0, count), filled(source, count, 7))).allOk()).isTrue();
        return source;
    }

    /** Polls {@code condition} until it holds, failing after {@link #PATIENCE}. */
    static void until(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            Thread.sleep(10);
        }
    }

    private static List<?> suspects(MooncakeStoreAdapter adapter) {
        return (List<?>) adapter.status().get("suspect_nodes");
    }

    private static int abandoned(MooncakeStoreAdapter adapter) {
        return (Integer) adapter.status().get("abandoned_calls");
    }

    private Object gauge(String node) {
        var gauge = metrics.getGauges().get("kvtier.l2.mc.node." + node + ".suspect");
        return gauge == null ? null : gauge.getValue();
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    @Test
    void aLoadFromASilentNodeCompletesAtItsDeadlineAsAnErrorAndTheLateBytesNeverReachItsSlice() throws Exception {
        MooncakeStoreAdapter adapter = adapter("suspect_after_ms", 60_000);
        storeKeys(adapter, 3);
        silence("a");
        OffHeapRegion target = new OffHeapRegion(SIZE);
        target.fill(0, SIZE, 99);

        long start = System.nanoTime();
        BatchResult result = await(adapter.load(keys(0, 1), empty(target, 1)));
        long waited = millisSince(start);

        assertThat(result.results()).containsExactly(KeyResult.ERROR);
        assertThat(result.firstError()).contains("did not complete within batch_timeout_ms = " + TIMEOUT_MS);
        assertThat(result.error(0).orElseThrow().kind()).isEqualTo(ErrorKind.TRANSIENT);
        assertThat(waited).as("ms waited").isGreaterThanOrEqualTo(TIMEOUT_MS).isLessThan(BOUND_MS);
        assertThat(metrics.counter("kvtier.l2.mc.timeouts").getCount()).isEqualTo(1);
        assertThat(abandoned(adapter)).isEqualTo(1);

        unsilence(); // the native call now completes: its receive into the slice is refused
        until("the abandoned call to return", () -> abandoned(adapter) == 0);
        assertThat(target.read(0, SIZE)).as("the slice after its future completed").isEqualTo(OffHeapRegion.expected(SIZE, 99));
    }

    @Test
    void aStoreThatOutlivesItsFutureStoresTheSlicesBytesOfItsCallNeverLaterOnes() throws Exception {
        MooncakeStoreAdapter adapter = adapter("suspect_after_ms", 60_000);
        silence("a"); // the first key stored lands on a
        OffHeapRegion source = new OffHeapRegion(SIZE);
        List<L1Slice> slices = filled(source, 1, 5);

        BatchResult stored = await(adapter.store(keys(0, 1), slices));
        assertThat(stored.results()).containsExactly(KeyResult.ERROR);
        assertThat(stored.firstError()).contains("did not complete within batch_timeout_ms");
        source.fill(0, SIZE, 6); // the caller reuses its slice at once

        unsilence(); // the transfer now goes on, from the connector's copy of the slice
        until("the abandoned store to return", () -> abandoned(adapter) == 0);
        OffHeapRegion target = new OffHeapRegion(SIZE);
        assertThat(await(adapter.load(keys(0, 1), empty(target, 1))).results()).containsExactly(KeyResult.OK);
        assertThat(target.read(0, SIZE)).as("the slice's bytes when it was stored (5), not now (6)")
                .isEqualTo(OffHeapRegion.expected(SIZE, 5));
    }

    @Test
    void aKeyWhoseStoreOutlivedItsDeadlineIsNotStoredOrDeletedAgainUntilThatStoreReturns() throws Exception {
        MooncakeStoreAdapter adapter = adapter("suspect_after_ms", 60_000);
        silence("a"); // the first key stored lands on a
        OffHeapRegion first = new OffHeapRegion(SIZE);
        assertThat(await(adapter.store(keys(0, 1), filled(first, 1, 5))).results()).containsExactly(KeyResult.ERROR);
        assertThat(adapter.status()).containsEntry("keys_in_doubt", 1);

        // Had this delete gone through, the late store would land after it and undo it.
        BatchResult delete = await(adapter.delete(keys(0, 1)));
        assertThat(delete.results()).containsExactly(KeyResult.ERROR);
        assertThat(delete.error(0).orElseThrow().kind()).isEqualTo(ErrorKind.TRANSIENT);
        assertThat(delete.firstError()).contains("is refused: an earlier store or delete of key")
                .contains("still runs in Mooncake");
        OffHeapRegion second = new OffHeapRegion(SIZE);
        assertThat(await(adapter.store(keys(0, 1), filled(second, 1, 6))).results()).containsExactly(KeyResult.ERROR);
        assertThat(await(adapter.store(keys(1, 1), filled(second, 1, 6))).results())
                .as("another key is not held up").containsExactly(KeyResult.OK);

        unsilence();
        until("the late store to return", () -> adapter.status().get("keys_in_doubt").equals(0));
        assertThat(await(adapter.store(keys(0, 1), filled(second, 1, 6))).results()).containsExactly(KeyResult.OK);
        assertThat(await(adapter.delete(keys(0, 1))).results()).containsExactly(KeyResult.OK);
        assertThat(await(adapter.lookupAndLock(keys(0, 1))).results()).as("the delete stays done")
                .containsExactly(KeyResult.MISSING);
    }

    @Test
    void aStuckCallGivesUpItsLaneThreadAndTheLaneKeepsServing() throws Exception {
        MooncakeStoreAdapter adapter = adapter("num_workers", 1, "suspect_after_ms", 60_000);
        OffHeapRegion source = storeKeys(adapter, 3);
        silence("a");

        OffHeapRegion target = new OffHeapRegion(2 * SIZE);
        assertThat(await(adapter.load(keys(0, 1), empty(target, 1))).results()).containsExactly(KeyResult.ERROR);
        assertThat(abandoned(adapter)).isEqualTo(1);
        assertThat(metrics.getGauges().get("kvtier.l2.mc.lane.abandoned_calls").getValue()).isEqualTo(1);

        // Key 1 is on b and c; the only lane thread is still inside the call to a.
        List<L1Slice> slice = List.of(target.slice(SIZE, SIZE));
        assertThat(await(adapter.load(keys(1, 1), slice)).results()).containsExactly(KeyResult.OK);
        assertThat(target.read(SIZE, SIZE)).isEqualTo(source.read(SIZE, SIZE));
    }

    @Test
    void abandonedCallsHaveALimitAfterWhichTheLaneWaitsAndItsBatchesStillCompleteInTime() throws Exception {
        MooncakeStoreAdapter adapter = adapter("num_workers", 1, "suspect_after_ms", 60_000, "max_abandoned_calls", 1);
        storeKeys(adapter, 4); // keys 0 and 3 on a
        silence("a");
        OffHeapRegion target = new OffHeapRegion(3 * SIZE);

        assertThat(await(adapter.load(keys(0, 1), empty(target, 1))).results()).containsExactly(KeyResult.ERROR);
        assertThat(abandoned(adapter)).isEqualTo(1);
        assertThat(await(adapter.load(keys(3, 1), List.of(target.slice(SIZE, SIZE)))).results())
                .containsExactly(KeyResult.ERROR);
        assertThat(abandoned(adapter)).as("at the limit").isEqualTo(1);

        long start = System.nanoTime();
        BatchResult queued = await(adapter.load(keys(1, 1), List.of(target.slice(2 * SIZE, SIZE))));
        assertThat(queued.results()).as("a batch queued behind the stuck thread").containsExactly(KeyResult.ERROR);
        assertThat(millisSince(start)).isLessThan(BOUND_MS);

        unsilence();
        until("every abandoned call to return", () -> abandoned(adapter) == 0);
        assertThat(await(adapter.load(keys(1, 1), List.of(target.slice(2 * SIZE, SIZE)))).results())
                .containsExactly(KeyResult.OK);
    }

    @Test
    void aSilentNodeBecomesSuspectItsOnlyKeysFailFastItsOtherKeysFailOverAndAProbeClearsIt() throws Exception {
        MooncakeStoreAdapter adapter = adapter("replica_num", 2);
        OffHeapRegion source = storeKeys(adapter, 3); // key 0 on a+b, key 1 on b+c, key 2 on c+a
        silence("a");
        OffHeapRegion target = new OffHeapRegion(3 * SIZE);

        // The first read of a finds it silent: its batch ends at the deadline, and a becomes suspect.
        assertThat(await(adapter.load(keys(0, 1), empty(target, 1))).results()).containsExactly(KeyResult.ERROR);
        until("a to be suspect", () -> suspects(adapter).equals(List.of("a")));
        until("a's gauge to say so", () -> Integer.valueOf(1).equals(gauge("a")));

        // A read that went to a would end at the deadline as an error: all OK is around it.
        BatchResult both = await(adapter.load(keys(0, 3), empty(target, 3)));
        assertThat(both.results()).containsOnly(KeyResult.OK);
        assertThat(target.read(0, 3 * SIZE)).isEqualTo(source.read(0, 3 * SIZE));
        until("a gauge for b, read from now", () -> Integer.valueOf(0).equals(gauge("b")));

        unsilence();
        until("the probe to clear a", () -> suspects(adapter).isEmpty());
        assertThat(gauge("a")).isEqualTo(0);
    }

    @Test
    void aKeyWhoseReplicasAreAllOnSuspectNodesFailsFastAsATransientError() throws Exception {
        MooncakeStoreAdapter adapter = adapter();
        storeKeys(adapter, 3); // key 0 on a only
        silence("a");
        OffHeapRegion target = new OffHeapRegion(SIZE);
        target.fill(0, SIZE, 3);
        assertThat(await(adapter.load(keys(0, 1), empty(target, 1))).results()).containsExactly(KeyResult.ERROR);
        until("a to be suspect", () -> suspects(adapter).equals(List.of("a")));

        // Refused up front, not waited out: a wait would end with the deadline's error instead.
        BatchResult fast = await(adapter.load(keys(0, 1), empty(target, 1)));
        assertThat(fast.results()).containsExactly(KeyResult.ERROR);
        assertThat(fast.firstError()).contains("ON_SUSPECT_NODES (-9100)").doesNotContain("batch_timeout_ms");
        KeyError error = fast.error(0).orElseThrow();
        assertThat(error.kind()).isEqualTo(ErrorKind.TRANSIENT);
        assertThat(error.code()).hasValue(MooncakeCodes.ON_SUSPECT_NODES);
        assertThat(adapter.health().healthy()).as("the master answers").isTrue();
        assertThat(adapter.health().unhealthyParts()).containsOnlyKeys("node a");
        assertThat(target.read(0, SIZE)).isEqualTo(OffHeapRegion.expected(SIZE, 3));
    }

    @Test
    void aCorruptedReplicaWhoseOtherReplicaIsOnASuspectNodeIsATransientErrorAndTheObjectIsKept() throws Exception {
        MooncakeStoreAdapter adapter = adapter("replica_num", 2, "testdouble_corrupt_node", "a");
        OffHeapRegion source = storeKeys(adapter, 2); // key 0 on a then b, key 1 on b then c
        silence("b");
        OffHeapRegion target = new OffHeapRegion(SIZE);
        assertThat(await(adapter.load(keys(1, 1), empty(target, 1))).results()).containsExactly(KeyResult.ERROR);
        until("b to be suspect", () -> suspects(adapter).equals(List.of("b")));

        BatchResult around = await(adapter.load(keys(0, 1), empty(target, 1)));
        assertThat(around.results()).containsExactly(KeyResult.ERROR);
        assertThat(around.error(0).orElseThrow().kind()).isEqualTo(ErrorKind.TRANSIENT);
        assertThat(around.firstError()).contains("ON_SUSPECT_NODES");
        assertThat(await(adapter.lookupAndLock(keys(0, 1))).results()).as("b's replica may be whole: kept")
                .containsExactly(KeyResult.OK);
        adapter.unlock(keys(0, 1));

        unsilence();
        until("the probe to clear b", () -> suspects(adapter).isEmpty());
        assertThat(await(adapter.load(keys(0, 1), empty(target, 1))).allOk()).isTrue();
        assertThat(target.read(0, SIZE)).isEqualTo(source.read(0, SIZE));
    }

    /**
     * Not with P2PHANDSHAKE, where a segment is named local_hostname:port and no replica shows it:
     * the master then places as it would (docs/connector.md, the store path).
     */
    @Test
    void whereSegmentsAreNamedByTheirEndpointsStoresPreferTheNodesNotSuspect() throws Exception {
        MooncakeStoreAdapter adapter = adapter("metadata_server", "http://127.0.0.1:1/metadata");
        storeKeys(adapter, 3); // keys 0, 1, 2 on a, b, c: the next key stored would land on a
        OffHeapRegion target = new OffHeapRegion(3 * SIZE);
        assertThat(await(adapter.load(keys(1, 2), empty(target, 2))).allOk()).as("b and c read once").isTrue();
        silence("a");
        assertThat(await(adapter.load(keys(0, 1), empty(target, 1))).results()).containsExactly(KeyResult.ERROR);
        until("a to be suspect", () -> suspects(adapter).equals(List.of("a")));

        OffHeapRegion source = new OffHeapRegion(2 * SIZE);
        // A store placed on a would end at the deadline as an error: all OK is around it.
        BatchResult stored = await(adapter.store(keys(10, 2), filled(source, 2, 11)));
        assertThat(stored.allOk()).isTrue();
        assertThat(await(adapter.load(keys(10, 2), empty(target, 2))).allOk()).isTrue();
        assertThat(target.read(0, 2 * SIZE)).isEqualTo(source.read(0, 2 * SIZE));
    }

    @Test
    void closeWaitsForAnAbandonedCallBeforeItFreesTheNativeClient() throws Exception {
        RecordingNative[] rec = new RecordingNative[1];
        silent = dir.resolve("silent-nodes");
        MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(lib -> rec[0] = new RecordingNative(lib)),
                TestDouble.body("master_server_addr", master, "testdouble_nodes", "a,b,c", "testdouble_silent_nodes_file",
                        silent.toString(), "batch_timeout_ms", TIMEOUT_MS, "suspect_after_ms", 60_000),
                TestDouble.context("mc", metrics, Optional.empty()));
        storeKeys(adapter, 1);
        silence("a");
        assertThat(await(adapter.load(keys(0, 1), empty(new OffHeapRegion(SIZE), 1))).results())
                .containsExactly(KeyResult.ERROR);
        assertThat(abandoned(adapter)).isEqualTo(1);

        CompletableFuture<Void> closing = CompletableFuture.runAsync(adapter::close);
        until("close() to begin", () -> Boolean.TRUE.equals(adapter.status().get("closed")));
        assertThat(rec[0].destroyed.getCount()).as("destroyed under a running call").isEqualTo(1);
        unsilence();
        closing.get();
        assertThat(rec[0].destroys.get()).isEqualTo(1);
    }

    @Test
    void aLookupIsBoundedByTheDeadlineToo() {
        MooncakeStoreAdapter adapter = adapter("testdouble_delay_ms_exists", 3_000);
        List<ObjectKey> keys = keys(0, 2);
        long start = System.nanoTime();
        BatchResult result = await(adapter.lookupAndLock(keys));
        assertThat(millisSince(start)).isLessThan(BOUND_MS);
        assertThat(result.results()).containsOnly(KeyResult.ERROR);
        assertThat(result.firstError()).contains("the lookup of key");
    }
}
