package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.SIZE;
import static io.kvtier.mooncake.Fixtures.await;
import static io.kvtier.mooncake.Fixtures.empty;
import static io.kvtier.mooncake.Fixtures.filled;
import static io.kvtier.mooncake.Fixtures.keys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.mooncake.batch.MooncakeBatchException;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Java → JNR-FFI → connector → test double, over TCP: LMCache's integration tests 25–33 in their
 * double-backed form, plus kvtier's adapter semantics (lookup errors are errors, short reads are
 * not hits, per-key store results, empty batches complete at once).
 */
class RoundTripTest {
    private final List<MooncakeStoreAdapter> adapters = new ArrayList<>();

    private MooncakeStoreAdapter adapter(Object... extra) {
        MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.body(extra));
        adapters.add(adapter);
        return adapter;
    }

    @AfterEach
    void closeAll() {
        adapters.forEach(MooncakeStoreAdapter::close);
    }

    // 25–28: store, lookup, load byte for byte, for 1, 10 and 64 keys
    @ParameterizedTest
    @ValueSource(ints = {1, 10, 64})
    void storeLookupLoadRoundTrip(int n) {
        MooncakeStoreAdapter adapter = adapter();
        OffHeapRegion src = new OffHeapRegion(n * SIZE);
        OffHeapRegion dst = new OffHeapRegion(n * SIZE);
        List<ObjectKey> keys = keys(0, n);

        BatchResult stored = await(adapter.store(keys, filled(src, n, 7)));
        assertThat(stored.results()).containsOnly(KeyResult.OK).hasSize(n);
        assertThat(stored.newBytes()).isEqualTo((long) n * SIZE);
        assertThat(stored.firstError()).isEmpty();

        BatchResult found = await(adapter.lookupAndLock(keys));
        assertThat(found.allOk()).isTrue();
        adapter.unlock(keys);

        BatchResult loaded = await(adapter.load(keys, empty(dst, n)));
        assertThat(loaded.results()).containsOnly(KeyResult.OK).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(dst.read(i * SIZE, SIZE)).as("chunk %d", i).isEqualTo(OffHeapRegion.expected(SIZE, i + 7));
        }
    }

    // 26
    @Test
    void lookupOfMissingKeysMisses() {
        BatchResult result = await(adapter().lookupAndLock(keys(100, 5)));
        assertThat(result.results()).containsOnly(KeyResult.MISSING).hasSize(5);
    }

    // 29
    @Test
    void mixedLookup() {
        MooncakeStoreAdapter adapter = adapter();
        OffHeapRegion src = new OffHeapRegion(3 * SIZE);
        await(adapter.store(keys(0, 3), filled(src, 3, 1)));
        BatchResult result = await(adapter.lookupAndLock(keys(0, 5)));
        assertThat(result.results()).containsExactly(KeyResult.OK, KeyResult.OK, KeyResult.OK, KeyResult.MISSING, KeyResult.MISSING);
    }

    @Test
    void mixedLoadReportsMissingKeysAsMissing() {
        MooncakeStoreAdapter adapter = adapter();
        OffHeapRegion src = new OffHeapRegion(2 * SIZE);
        await(adapter.store(List.of(TestDouble.key(0), TestDouble.key(2)), filled(src, 2, 3)));
        OffHeapRegion dst = new OffHeapRegion(3 * SIZE);
        BatchResult result = await(adapter.load(keys(0, 3), empty(dst, 3)));
        assertThat(result.results()).containsExactly(KeyResult.OK, KeyResult.MISSING, KeyResult.OK);
        assertThat(dst.read(2 * SIZE, SIZE)).isEqualTo(OffHeapRegion.expected(SIZE, 1 + 3));
    }

    // 30
    @Test
    void deleteStoredKey() {
        MooncakeStoreAdapter adapter = adapter();
        OffHeapRegion src = new OffHeapRegion(SIZE);
        await(adapter.store(keys(0, 1), filled(src, 1, 0)));
        assertThat(await(adapter.delete(keys(0, 1))).results()).containsExactly(KeyResult.OK);
        assertThat(await(adapter.lookupAndLock(keys(0, 1))).results()).containsExactly(KeyResult.MISSING);
    }

    // 31
    @Test
    void deleteOfMissingKeysReportsMissing() {
        BatchResult result = await(adapter().delete(keys(50, 3)));
        assertThat(result.results()).containsOnly(KeyResult.MISSING).hasSize(3);
        assertThat(result.firstError()).isEmpty();
    }

    // 32
    @Test
    void mixedBatchDelete() {
        MooncakeStoreAdapter adapter = adapter();
        OffHeapRegion src = new OffHeapRegion(2 * SIZE);
        await(adapter.store(List.of(TestDouble.key(0), TestDouble.key(2)), filled(src, 2, 0)));
        BatchResult result = await(adapter.delete(keys(0, 4)));
        assertThat(result.results()).containsExactly(KeyResult.OK, KeyResult.MISSING, KeyResult.OK, KeyResult.MISSING);
        assertThat(await(adapter.lookupAndLock(keys(0, 4))).results()).containsOnly(KeyResult.MISSING);
    }

    // 33, plus listeners: a re-stored key is reported with size 0
    @Test
    void usageReturnsToBaselineAfterDelete() {
        MooncakeStoreAdapter adapter = adapter();
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        adapter.addListener(new L2AdapterListener() {
            @Override
            public void onKeysStored(List<ObjectKey> keys, List<Long> sizes) {
                events.add("stored " + keys.size() + " " + sizes);
            }

            @Override
            public void onKeysAccessed(List<ObjectKey> keys) {
                events.add("accessed " + keys.size());
            }

            @Override
            public void onKeysDeleted(List<ObjectKey> keys) {
                events.add("deleted " + keys.size());
            }
        });
        long baseline = adapter.usage().totalBytesUsed();
        assertThat(adapter.usage().usageFraction()).isEqualTo(-1.0);
        OffHeapRegion src = new OffHeapRegion(3 * SIZE);
        await(adapter.store(keys(0, 3), filled(src, 3, 0)));
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(baseline + 3L * SIZE);

        // A re-store succeeds, adds 0 new bytes, and is reported with size 0.
        BatchResult again = await(adapter.store(keys(0, 1), filled(src, 1, 0)));
        assertThat(again.results()).containsExactly(KeyResult.OK);
        assertThat(again.newBytes()).isZero();
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(baseline + 3L * SIZE);

        await(adapter.load(keys(0, 2), empty(new OffHeapRegion(2 * SIZE), 2)));
        await(adapter.delete(keys(0, 3)));
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(baseline);
        assertThat(events).containsExactly("stored 3 [2048, 2048, 2048]", "stored 1 [0]", "accessed 2", "deleted 3");
    }

    @Test
    void aKeyThatMooncakeNoLongerHoldsLeavesUsageWhenALookupOrLoadFindsItMissing() {
        String master = "double-" + java.util.UUID.randomUUID() + ":1";
        MooncakeStoreAdapter adapter = adapter("master_server_addr", master);
        // Another client of the same cluster removes keys 0 and 1, as Mooncake's eviction would.
        MooncakeStoreAdapter evictor = adapter("master_server_addr", master);
        OffHeapRegion src = new OffHeapRegion(3 * SIZE);
        await(adapter.store(keys(0, 3), filled(src, 3, 0)));
        await(evictor.delete(keys(0, 2)));
        assertThat(adapter.usage().totalBytesUsed()).as("unseen yet").isEqualTo(3L * SIZE);

        assertThat(await(adapter.lookupAndLock(keys(0, 1))).results()).containsExactly(KeyResult.MISSING);
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(2L * SIZE);
        assertThat(await(adapter.load(keys(1, 2), empty(new OffHeapRegion(2 * SIZE), 2))).results())
                .containsExactly(KeyResult.MISSING, KeyResult.OK);
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(SIZE);
    }

    @Test
    void emptyBatchesCompleteAtOnce() {
        MooncakeStoreAdapter adapter = adapter();
        assertThat(adapter.store(List.of(), List.of())).isCompletedWithValue(BatchResult.empty());
        assertThat(adapter.lookupAndLock(List.of())).isCompletedWithValue(BatchResult.empty());
        assertThat(adapter.load(List.of(), List.of())).isCompletedWithValue(BatchResult.empty());
        assertThat(adapter.delete(List.of())).isCompletedWithValue(BatchResult.empty());
    }

    @Test
    void mismatchedSizesThrow() {
        MooncakeStoreAdapter adapter = adapter();
        assertThatThrownBy(() -> adapter.store(keys(0, 2), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("size mismatch");
    }

    @Test
    void lookupErrorIsNotAMiss() {
        ObjectKey failing = TestDouble.key(1);
        MooncakeStoreAdapter adapter = adapter("testdouble_fail_keys", failing.wireString());
        BatchResult result = await(adapter.lookupAndLock(keys(0, 3)));
        assertThat(result.results()).containsExactly(KeyResult.MISSING, KeyResult.ERROR, KeyResult.MISSING);
        assertThat(result.firstError()).contains(failing.wireString()).contains("INTERNAL_ERROR (-1)");
    }

    // Mooncake's clients at their defaults store every object so (testdouble_unchecked_keys).
    @Test
    void anObjectWithoutAChecksumIsLoadedByDefaultAndLeftInPlace() {
        ObjectKey unchecked = TestDouble.key(1);
        MooncakeStoreAdapter adapter = adapter("testdouble_unchecked_keys", unchecked.wireString());
        OffHeapRegion src = new OffHeapRegion(3 * SIZE);
        List<L1Slice> stored = filled(src, 3, 0);
        assertThat(await(adapter.store(keys(0, 3), stored)).results()).containsOnly(KeyResult.OK);

        List<L1Slice> into = empty(new OffHeapRegion(3 * SIZE), 3);
        assertThat(await(adapter.load(keys(0, 3), into)).results()).containsOnly(KeyResult.OK);
        assertThat(into.get(1).buffer()).isEqualTo(stored.get(1).buffer());
        assertThat(await(adapter.lookupAndLock(keys(0, 3))).results()).containsOnly(KeyResult.OK);
        adapter.unlock(keys(0, 3));
    }

    @Test
    void withUncheckedObjectsMissAnObjectWithoutAChecksumIsAMissAndIsLeftInPlace() {
        ObjectKey unchecked = TestDouble.key(1);
        MooncakeStoreAdapter adapter = adapter("unchecked_objects", "miss", "testdouble_unchecked_keys", unchecked.wireString());
        OffHeapRegion src = new OffHeapRegion(3 * SIZE);
        assertThat(await(adapter.store(keys(0, 3), filled(src, 3, 0))).results()).containsOnly(KeyResult.OK);

        BatchResult loaded = await(adapter.load(keys(0, 3), empty(new OffHeapRegion(3 * SIZE), 3)));
        assertThat(loaded.results()).containsExactly(KeyResult.OK, KeyResult.MISSING, KeyResult.OK);
        assertThat(await(adapter.lookupAndLock(keys(0, 3))).results())
                .as("the object is another client's: left in place").containsOnly(KeyResult.OK);
        adapter.unlock(keys(0, 3));
    }

    @Test
    void withUncheckedObjectsRemoveAnObjectWithoutAChecksumIsAMissAndIsRemovedSoThatTheNextStoreReplacesIt() {
        // For a cluster whose every writer checksums: then only a master restored from a snapshot has such objects.
        ObjectKey unchecked = TestDouble.key(1);
        MooncakeStoreAdapter adapter = adapter("unchecked_objects", "remove", "testdouble_unchecked_keys", unchecked.wireString());
        OffHeapRegion src = new OffHeapRegion(3 * SIZE);
        assertThat(await(adapter.store(keys(0, 3), filled(src, 3, 0))).results()).containsOnly(KeyResult.OK);

        BatchResult loaded = await(adapter.load(keys(0, 3), empty(new OffHeapRegion(3 * SIZE), 3)));
        assertThat(loaded.results()).containsExactly(KeyResult.OK, KeyResult.MISSING, KeyResult.OK);
        assertThat(await(adapter.lookupAndLock(keys(0, 3))).results())
                .as("the unverifiable object was removed").containsExactly(KeyResult.OK, KeyResult.MISSING, KeyResult.OK);
        adapter.unlock(keys(0, 3));
    }

    @Test
    void perKeyStoreFailureFailsOnlyThatKey() {
        ObjectKey failing = TestDouble.key(2);
        MooncakeStoreAdapter adapter = adapter("testdouble_fail_keys", failing.wireString());
        OffHeapRegion src = new OffHeapRegion(4 * SIZE);
        BatchResult result = await(adapter.store(keys(0, 4), filled(src, 4, 0)));
        assertThat(result.results()).containsExactly(KeyResult.OK, KeyResult.OK, KeyResult.ERROR, KeyResult.OK);
        assertThat(result.newBytes()).isEqualTo(3L * SIZE);
        assertThat(result.firstError()).startsWith("Mooncake batch_put_from failed for key " + failing.wireString());
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(3L * SIZE);
    }

    @Test
    void perKeyDeleteAndLoadFailuresAreErrors() {
        ObjectKey failing = TestDouble.key(0);
        MooncakeStoreAdapter adapter = adapter("testdouble_fail_keys", failing.wireString());
        assertThat(await(adapter.delete(keys(0, 2))).results()).containsExactly(KeyResult.ERROR, KeyResult.MISSING);
        assertThat(await(adapter.load(keys(0, 2), empty(new OffHeapRegion(2 * SIZE), 2))).results())
                .containsExactly(KeyResult.ERROR, KeyResult.MISSING);
    }

    @Test
    void shortReadIsAnErrorNotAHit() {
        MooncakeStoreAdapter adapter = adapter();
        OffHeapRegion src = new OffHeapRegion(SIZE);
        await(adapter.store(keys(0, 1), filled(src, 1, 0)));
        OffHeapRegion dst = new OffHeapRegion(2 * SIZE);
        BatchResult result = await(adapter.load(keys(0, 1), List.of(dst.slice(0, 2 * SIZE))));
        assertThat(result.results()).containsExactly(KeyResult.ERROR);
        assertThat(result.firstError()).contains("short read").contains("returned " + SIZE + " bytes, expected " + 2 * SIZE);
    }

    @Test
    void tooSmallBufferIsAnError() {
        MooncakeStoreAdapter adapter = adapter();
        OffHeapRegion src = new OffHeapRegion(SIZE);
        await(adapter.store(keys(0, 1), filled(src, 1, 0)));
        BatchResult result = await(adapter.load(keys(0, 1), List.of(new OffHeapRegion(SIZE / 2).slice(0, SIZE / 2))));
        assertThat(result.results()).containsExactly(KeyResult.ERROR);
        assertThat(result.firstError()).contains("INVALID_PARAMS (-600)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"put", "get", "exists", "remove"})
    void batchFailureFailsTheFutureWithTheCause(String op) {
        MooncakeStoreAdapter adapter = adapter("testdouble_fail_batch", op);
        OffHeapRegion region = new OffHeapRegion(2 * SIZE);
        CompletableFuture<BatchResult> future = switch (op) {
            case "put" -> adapter.store(keys(0, 2), filled(region, 2, 0));
            case "get" -> adapter.load(keys(0, 2), empty(region, 2));
            case "exists" -> adapter.lookupAndLock(keys(0, 2));
            default -> adapter.delete(keys(0, 2));
        };
        assertThatThrownBy(() -> await(future))
                .isInstanceOf(CompletionException.class)
                .cause()
                .isInstanceOf(MooncakeBatchException.class)
                .hasMessageContaining("returned 3 results for 2 keys");
        assertThat(adapter.status()).containsEntry("is_healthy", true);
    }

    @Test
    void tcpRejectsNullAndEmptyBuffersBeforeNativeCode() {
        RecordingNative[] rec = new RecordingNative[1];
        MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(lib -> rec[0] = new RecordingNative(lib)),
                TestDouble.body(), TestDouble.context("mc"));
        adapters.add(adapter);
        OffHeapRegion region = new OffHeapRegion(2 * SIZE);
        List<L1Slice> slices = List.of(region.fakeAddress(0, SIZE), region.slice(SIZE, 0), region.slice(SIZE, SIZE));
        region.fill(SIZE, SIZE, 9);
        BatchResult result = await(adapter.store(keys(0, 3), slices));
        assertThat(result.results()).containsExactly(KeyResult.ERROR, KeyResult.ERROR, KeyResult.OK);
        assertThat(result.firstError()).isEqualTo("Mooncake buffer check failed: null buffer");
        // One key reached native code; on tcp it passes kvtier's staging memory, not the slice.
        assertThat(rec[0].batchAddresses).hasSize(1);

        BatchResult allBad = await(adapter.load(keys(0, 1), List.of(region.slice(0, 0))));
        assertThat(allBad.results()).containsExactly(KeyResult.ERROR);
        assertThat(allBad.firstError()).isEqualTo("Mooncake buffer check failed: zero length");
        assertThat(rec[0].batchCalls).as("a batch with no valid buffer makes no native call").hasValue(1);
    }

    @Test
    void replicaCountsArePassedToEveryPut() {
        RecordingNative[] rec = new RecordingNative[1];
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec[0] = new RecordingNative(lib));
        OffHeapRegion region = new OffHeapRegion(SIZE);
        try (MooncakeStoreAdapter adapter = TestDouble.create(provider, TestDouble.body("replica_num", 2, "nof_replica_num", 0),
                TestDouble.context("mc"))) {
            await(adapter.store(keys(0, 1), filled(region, 1, 0)));
        }
        try (MooncakeStoreAdapter adapter = TestDouble.create(provider, TestDouble.body(), TestDouble.context("mc"))) {
            await(adapter.store(keys(0, 1), filled(region, 1, 0)));
        }
        assertThat(rec[0].putReplicas).containsExactly(new int[] {2, 0}, new int[] {-1, -1});
    }

    @Test
    void zeroReplicasIsAPerKeyErrorFromMooncake() {
        MooncakeStoreAdapter adapter = adapter("replica_num", 0, "nof_replica_num", 0);
        BatchResult result = await(adapter.store(keys(0, 1), filled(new OffHeapRegion(SIZE), 1, 0)));
        assertThat(result.results()).containsExactly(KeyResult.ERROR);
    }

    @Test
    void locksAreLocalBookkeeping() {
        MooncakeStoreAdapter adapter = adapter();
        await(adapter.store(keys(0, 1), filled(new OffHeapRegion(SIZE), 1, 0)));
        await(adapter.lookupAndLock(keys(0, 2)));
        adapter.unlock(keys(0, 2));
        adapter.unlock(keys(5, 2)); // unknown keys are ignored
        assertThat(adapter.status()).containsEntry("is_healthy", true);
    }

    @Test
    void instancesOnOneMasterShareObjects() {
        Map<String, Object> body = TestDouble.body();
        MooncakeStoreAdapter writer = TestDouble.create(body);
        adapters.add(writer);
        MooncakeStoreAdapter reader = TestDouble.create(TestDouble.provider(), body, TestDouble.context("other"));
        adapters.add(reader);
        await(writer.store(keys(0, 1), filled(new OffHeapRegion(SIZE), 1, 4)));
        OffHeapRegion dst = new OffHeapRegion(SIZE);
        assertThat(await(reader.load(keys(0, 1), empty(dst, 1))).allOk()).isTrue();
        assertThat(dst.read(0, SIZE)).isEqualTo(OffHeapRegion.expected(SIZE, 4));
    }

    @Test
    void statusReportsHealthAndType() {
        Map<String, Object> status = adapter().status();
        assertThat(status).containsEntry("is_healthy", true).containsEntry("type", "mooncake_store")
                .containsEntry("protocol", "tcp").containsKeys("lanes", "registered_bytes", "in_flight");
    }
}
