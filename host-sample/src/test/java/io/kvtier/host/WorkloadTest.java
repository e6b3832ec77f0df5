package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchFailedException;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.BatchOutcome;
import io.kvtier.toolkit.KeyLocks;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WorkloadTest {
    /** Test double of a store whose master is gone: every key of every batch is an RPC_FAIL error. */
    static final class MasterGoneAdapterDouble implements L2Adapter {
        final AtomicInteger batches = new AtomicInteger();

        private CompletableFuture<BatchResult> failEvery(List<ObjectKey> keys) {
            batches.incrementAndGet();
            BatchOutcome outcome = new BatchOutcome(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                outcome.error(i, KeyError.of(ErrorKind.TRANSIENT, -900, "Mooncake batch_put_from failed for key " + keys.get(i)
                        + ": RPC_FAIL (-900)"));
            }
            return CompletableFuture.completedFuture(outcome.build(0));
        }

        @Override
        public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) {
            return failEvery(keys);
        }

        @Override
        public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
            return failEvery(keys);
        }

        @Override
        public void unlock(List<ObjectKey> keys) {}

        @Override
        public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) {
            return failEvery(keys);
        }

        @Override
        public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
            return failEvery(keys);
        }

        @Override
        public AdapterUsage usage() {
            return new AdapterUsage(0, 0, Map.of());
        }

        @Override
        public Map<String, Object> status() {
            return Map.of("is_healthy", false, "type", "master_gone_double");
        }

        @Override
        public void addListener(L2AdapterListener listener) {}

        @Override
        public void close() {}
    }

    /**
     * Test double: an honest tier on the heap that counts the lookups it is asked and the locks they
     * hold, and answers every key of one of them (the {@code wrongLookup}-th, from 1) missing.
     */
    static class CountingAdapterDouble implements L2Adapter {
        private final Map<ObjectKey, ByteBuffer> objects = new ConcurrentHashMap<>();
        private final KeyLocks locks = new KeyLocks();
        private final Set<ObjectKey> everLocked = ConcurrentHashMap.newKeySet();
        private final AtomicInteger lookups = new AtomicInteger();
        private final int wrongLookup;

        CountingAdapterDouble(int wrongLookup) {
            this.wrongLookup = wrongLookup;
        }

        int lookups() {
            return lookups.get();
        }

        /** Keys locked by a lookup and not unlocked since. */
        long lockedKeys() {
            return everLocked.stream().filter(locks::isLocked).count();
        }

        @Override
        public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) {
            BatchOutcome outcome = new BatchOutcome(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                ByteBuffer source = objects.get(i).buffer().duplicate().clear();
                this.objects.put(keys.get(i), ByteBuffer.allocate(source.remaining()).put(source).flip());
                outcome.ok(i);
            }
            return CompletableFuture.completedFuture(outcome.build(0));
        }

        @Override
        public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
            boolean wrong = lookups.incrementAndGet() == wrongLookup;
            BatchOutcome outcome = new BatchOutcome(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                if (!wrong && objects.containsKey(keys.get(i))) {
                    locks.lock(keys.get(i));
                    everLocked.add(keys.get(i));
                    outcome.ok(i);
                } else {
                    outcome.missing(i);
                }
            }
            return CompletableFuture.completedFuture(outcome.build(0));
        }

        @Override
        public void unlock(List<ObjectKey> keys) {
            locks.unlock(keys);
        }

        @Override
        public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) {
            BatchOutcome outcome = new BatchOutcome(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                objects.get(i).buffer().duplicate().clear().put(this.objects.get(keys.get(i)).duplicate());
                outcome.ok(i);
            }
            return CompletableFuture.completedFuture(outcome.build(0));
        }

        @Override
        public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
            BatchOutcome outcome = new BatchOutcome(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                objects.remove(keys.get(i));
                outcome.ok(i);
            }
            return CompletableFuture.completedFuture(outcome.build(0));
        }

        @Override
        public AdapterUsage usage() {
            return new AdapterUsage(0, 0, Map.of());
        }

        @Override
        public Map<String, Object> status() {
            return Map.of("is_healthy", true, "type", "counting_double");
        }

        @Override
        public void addListener(L2AdapterListener listener) {}

        @Override
        public void close() {}
    }

    /**
     * Test double of a master that goes away for good: an honest tier for its first {@code healthyBatches}
     * batches, then every batch fails as a whole, as mooncake_store's do once its master stops answering.
     */
    static final class GoneAfterDouble extends CountingAdapterDouble {
        private final int healthyBatches;
        private final AtomicInteger batches = new AtomicInteger();

        GoneAfterDouble(int healthyBatches) {
            super(0);
            this.healthyBatches = healthyBatches;
        }

        private boolean gone() {
            return batches.incrementAndGet() > healthyBatches;
        }

        private static CompletableFuture<BatchResult> failed() {
            return CompletableFuture.failedFuture(new BatchFailedException(KeyError.of(ErrorKind.TRANSIENT,
                    "the master has not answered a probe for over 2 s")));
        }

        @Override
        public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) {
            return gone() ? failed() : super.store(keys, objects);
        }

        @Override
        public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
            return gone() ? failed() : super.lookupAndLock(keys);
        }

        @Override
        public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) {
            return gone() ? failed() : super.load(keys, objects);
        }

        @Override
        public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
            return gone() ? failed() : super.delete(keys);
        }
    }

    private static Workload.RunReport run(Workload.Options options, L2Adapter adapter) {
        try (L1Arena arena = L1Arena.allocate(Workload.l1BytesNeeded(options), L1Arena.DEFAULT_ALIGNMENT, true)) {
            Workload workload = new Workload(arena, options, new MetricRegistry(),
                    new Progress(new PrintWriter(new StringWriter())));
            return workload.run("counted", "counting_double", adapter);
        }
    }

    @Test
    void eachPassAsksItsLookupsAndRechecksAndUnlocksEveryKey() {
        // 8 chunks in batches of 4: two lookups a phase.
        CountingAdapterDouble adapter = new CountingAdapterDouble(0);
        Workload.RunReport report = run(new Workload.Options(8, 4096, 4, 1, 2), adapter);
        assertThat(report.passed()).isTrue();
        // Per pass: the lookup phase and the recheck, two each.
        assertThat(adapter.lookups()).isEqualTo(2 * 4);
        assertThat(adapter.lockedKeys()).isZero();
        assertThat(report.passes).allSatisfy(pass -> {
            assertThat(pass.hits).isEqualTo(8);
            assertThat(pass.misses).isEqualTo(2);
        });
    }

    @Test
    void aWrongAnswerToALookupFailsItsPassAlone() {
        CountingAdapterDouble adapter = new CountingAdapterDouble(1);
        Workload.RunReport report = run(new Workload.Options(8, 4096, 4, 1, 2), adapter);
        assertThat(report.passes.get(0).unexpectedLookups).isEqualTo(4);
        assertThat(report.passes.get(0).passed()).isFalse();
        assertThat(report.passes.get(1).passed()).isTrue();
    }

    @Test
    void repeatedErrorsAreSummedUpByKindAndCodeInOneLine() {
        Workload.Options options = new Workload.Options(8, 4096, 4, 1, 1);
        try (L1Arena arena = L1Arena.allocate(Workload.l1BytesNeeded(options), L1Arena.DEFAULT_ALIGNMENT, true)) {
            Workload workload = new Workload(arena, options, new MetricRegistry(),
                    new Progress(new PrintWriter(new StringWriter())));
            Workload.RunReport report = workload.run("gone", "master_gone_double", new MasterGoneAdapterDouble());
            // 8 stores, 8 + 2 lookups, 8 loads, 8 deletes and 8 rechecks, each an error, none a survivor of its delete.
            assertThat(report.errorsByKind()).containsExactly(Map.entry("transient -900", 42L));
            assertThat(report.passes.get(0).survivedDelete).isZero();
            assertThat(RunSummary.toText(report)).contains("  FAILED: 42 errors (transient -900=42)");
            assertThat(RunSummary.toJson(List.of(report))).contains("\"errors_by_kind\":{\"transient -900\":42}");
        }
    }

    @Test
    void batchesThatFailWholeAreErrorsOfTheirKindInTheReportOfEveryPassAndTheRunGoesOn() {
        // 8 chunks in batches of 4: 10 batches a pass (2 stores, 2 lookups, 2 loads, 2 deletes, 2 rechecks).
        Workload.Options options = new Workload.Options(8, 4096, 4, 1, 2);
        Workload.RunReport report = run(options, new GoneAfterDouble(10));

        assertThat(report.passes).hasSize(2);
        assertThat(report.passes.get(0).passed()).as("the pass before the master went").isTrue();
        Workload.PassReport gone = report.passes.get(1);
        assertThat(gone.passed()).isFalse();
        assertThat(gone.storeErrors).isEqualTo(8);
        assertThat(gone.lookupErrors).as("8 stored keys and 2 missing ones").isEqualTo(10);
        assertThat(gone.notLoaded).isEqualTo(8);
        assertThat(gone.deleteErrors).isEqualTo(8);
        assertThat(gone.survivedDelete).isZero();
        assertThat(report.errorsByKind()).containsExactly(Map.entry("transient", 42L));
        assertThat(RunSummary.toText(report)).contains("  pass 1 (cold)", "  pass 2:", "  store   ", "stored 0  errors 8",
                "  FAILED: 42 errors (transient=42)");
    }

    @Test
    void whileEveryKeyFailsTheRunSendsABatchAtMostEveryPause() {
        MasterGoneAdapterDouble gone = new MasterGoneAdapterDouble();
        long start = System.nanoTime();
        Workload.RunReport report = run(new Workload.Options(8, 4096, 4, 4, 1), gone);
        long elapsed = System.nanoTime() - start;

        assertThat(report.passed()).isFalse();
        assertThat(gone.batches.get()).as("5 phases of 2 batches").isEqualTo(10);
        // Each batch after the first waited out a pause: with the master down no batch ends one early.
        assertThat(elapsed).isGreaterThanOrEqualTo((gone.batches.get() - 1) * FailurePacer.PAUSE_NANOS);
    }
}
