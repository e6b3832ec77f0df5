package io.kvtier.mooncake;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Bounded concurrency run: 4 callers × 200 batches over shared and dedicated lanes; every byte checked. */
class StressTest {
    private static final int THREADS = 4;
    private static final int BATCHES = 200;
    private static final int KEYS = 4;
    private static final int SIZE = 1024;

    @Test
    void noLostOrCorruptedChunk() throws Exception {
        Map<String, Object> body = TestDouble.body("num_workers", 3, "per_op_workers", Map.of("lookup", 2, "retrieve", 2));
        try (MooncakeStoreAdapter adapter = TestDouble.create(body)) {
            ExecutorService callers = Executors.newFixedThreadPool(THREADS);
            List<Future<Long>> kept = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                kept.add(callers.submit(() -> run(adapter, thread)));
            }
            long keptBytes = 0;
            for (Future<Long> f : kept) {
                keptBytes += f.get(120, TimeUnit.SECONDS);
            }
            callers.shutdown();
            assertThat(adapter.usage().totalBytesUsed()).isEqualTo(keptBytes);
            assertThat(keptBytes).isEqualTo((long) THREADS * (BATCHES / 2) * KEYS * SIZE);
        }
    }

    /**
     * LMCache's TSan batch test in Java form: 64 keys × 4 KiB through set, exists, get, delete and
     * exists with 4 shared workers, each stage submitted as concurrent single-key batches.
     */
    @Test
    void concurrentSingleKeyBatchesAcrossAllOps() {
        int n = 64;
        int size = 4096;
        try (MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.body("num_workers", 4))) {
            OffHeapRegion src = new OffHeapRegion(n * size);
            OffHeapRegion dst = new OffHeapRegion(n * size);
            List<ObjectKey> keys = Fixtures.keys(0, n);
            for (int i = 0; i < n; i++) {
                src.fill(i * size, size, i);
            }
            assertThat(stage(n, i -> adapter.store(List.of(keys.get(i)), List.of(src.slice(i * size, size)))))
                    .containsOnly(KeyResult.OK);
            assertThat(stage(n, i -> adapter.lookupAndLock(List.of(keys.get(i))))).containsOnly(KeyResult.OK);
            assertThat(stage(n, i -> adapter.load(List.of(keys.get(i)), List.of(dst.slice(i * size, size)))))
                    .containsOnly(KeyResult.OK);
            for (int i = 0; i < n; i++) {
                assertThat(dst.read(i * size, size)).isEqualTo(OffHeapRegion.expected(size, i));
            }
            assertThat(stage(n, i -> adapter.delete(List.of(keys.get(i))))).containsOnly(KeyResult.OK);
            assertThat(stage(n, i -> adapter.lookupAndLock(List.of(keys.get(i))))).containsOnly(KeyResult.MISSING);
        }
    }

    /** Submits n single-key batches at once, then waits for all; one result per batch. */
    private static List<KeyResult> stage(int n, java.util.function.IntFunction<CompletableFuture<BatchResult>> op) {
        List<CompletableFuture<BatchResult>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            futures.add(op.apply(i));
        }
        return futures.stream().map(f -> {
            BatchResult r = Fixtures.await(f);
            assertThat(r.size()).isEqualTo(1);
            return r.get(0);
        }).toList();
    }

    /** Returns the bytes this caller left stored (odd batches are deleted again). */
    private static long run(MooncakeStoreAdapter adapter, int thread) {
        OffHeapRegion src = new OffHeapRegion(KEYS * SIZE);
        OffHeapRegion dst = new OffHeapRegion(KEYS * SIZE);
        long kept = 0;
        for (int b = 0; b < BATCHES; b++) {
            List<ObjectKey> keys = new ArrayList<>();
            List<L1Slice> in = new ArrayList<>();
            List<L1Slice> out = new ArrayList<>();
            for (int k = 0; k < KEYS; k++) {
                int id = (thread * BATCHES + b) * KEYS + k;
                keys.add(TestDouble.key(id));
                src.fill(k * SIZE, SIZE, id);
                in.add(src.slice(k * SIZE, SIZE));
                out.add(dst.slice(k * SIZE, SIZE));
            }
            BatchResult stored = Fixtures.await(adapter.store(keys, in));
            assertThat(stored.allOk()).as("store %d/%d: %s", thread, b, stored.firstError()).isTrue();
            assertThat(Fixtures.await(adapter.lookupAndLock(keys)).allOk()).isTrue();
            adapter.unlock(keys);
            BatchResult loaded = Fixtures.await(adapter.load(keys, out));
            assertThat(loaded.allOk()).as("load %d/%d: %s", thread, b, loaded.firstError()).isTrue();
            for (int k = 0; k < KEYS; k++) {
                int id = (thread * BATCHES + b) * KEYS + k;
                assertThat(dst.read(k * SIZE, SIZE)).as("chunk %d", id).isEqualTo(OffHeapRegion.expected(SIZE, id));
            }
            if (b % 2 == 1) {
                assertThat(Fixtures.await(adapter.delete(keys)).results()).containsOnly(KeyResult.OK);
                assertThat(Fixtures.await(adapter.lookupAndLock(keys)).results()).containsOnly(KeyResult.MISSING);
            } else {
                kept += (long) KEYS * SIZE;
            }
        }
        return kept;
    }
}
