package io.kvtier.mooncake;

import static io.kvtier.mooncake.RoundTripTest.filled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code lookup_on_caller_thread}: no hand-off for lookups, and close() still never frees the client under one. */
class LookupOnCallerThreadTest {
    private final MetricRegistry metrics = new MetricRegistry();
    private RecordingNative rec;

    private MooncakeStoreAdapter create(Object... body) {
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec = new RecordingNative(lib));
        return TestDouble.create(provider, TestDouble.body(body), TestDouble.context("mc", metrics, Optional.empty()));
    }

    @Test
    void aLookupRunsOnTheCallingThreadAndIsCompleteOnReturn() {
        try (MooncakeStoreAdapter adapter = create("lookup_on_caller_thread", true)) {
            List<ObjectKey> keys = RoundTripTest.keys(0, 3);
            adapter.store(keys.subList(0, 2), filled(new OffHeapRegion(2 * RoundTripTest.SIZE), 2, 0)).join();

            CompletableFuture<BatchResult> lookup = adapter.lookupAndLock(keys);

            assertThat(lookup).isCompleted();
            assertThat(lookup.join().results()).containsExactly(KeyResult.OK, KeyResult.OK, KeyResult.MISSING);
            assertThat(rec.lookupThreads).containsExactly(Thread.currentThread());
            assertThat(metrics.getTimers().get("kvtier.l2.mc.lookup").getCount()).isEqualTo(1);
            assertThat(metrics.getCounters().get("kvtier.l2.mc.hits").getCount()).isEqualTo(2);
            assertThat(adapter.status()).containsEntry("lookup_on_caller_thread", true).containsEntry("in_flight", 0);
        }
    }

    @Test
    void byDefaultALookupRunsOnALane() {
        try (MooncakeStoreAdapter adapter = create()) {
            adapter.lookupAndLock(List.of(TestDouble.key(0))).join();
            assertThat(rec.lookupThreads).singleElement()
                    .satisfies(thread -> assertThat(thread.getName()).startsWith("kvtier-mc-shared-"));
            assertThat(adapter.status()).containsEntry("lookup_on_caller_thread", false);
        }
    }

    @Test
    void closeWaitsForALookupInsideNativeCodeOnACallerThread() throws Exception {
        // Every exists call is held 1 s in the double, so close() comes while the lookup is inside it.
        MooncakeStoreAdapter adapter = create("lookup_on_caller_thread", true, "testdouble_delay_ms_exists", 1000);
        CompletableFuture<CompletableFuture<BatchResult>> caller = CompletableFuture.supplyAsync(
                () -> adapter.lookupAndLock(List.of(TestDouble.key(0))));
        assertThat(rec.lookupEntered.await(30, TimeUnit.SECONDS)).isTrue();

        adapter.close();

        assertThat(rec.destroys).hasValue(1);
        assertThat(rec.lookupsInNativeAtDestroy).as("lookups inside native code when the client was freed").isZero();
        assertThatThrownBy(() -> caller.get(30, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .hasMessage("mooncake_store adapter 'mc' is closed");
        assertThatThrownBy(() -> adapter.lookupAndLock(List.of(TestDouble.key(0))).join())
                .hasRootCauseMessage("mooncake_store adapter 'mc' is closed");
        assertThat(rec.lookupThreads).hasSize(1);
    }

    @Test
    void lookupsOnManyCallerThreadsAtOnceAllAnswer() {
        try (MooncakeStoreAdapter adapter = create("lookup_on_caller_thread", true, "num_workers", 1)) {
            List<ObjectKey> keys = RoundTripTest.keys(0, 8);
            adapter.store(keys, filled(new OffHeapRegion(8 * RoundTripTest.SIZE), 8, 0)).join();
            List<CompletableFuture<BatchResult>> lookups = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                List<ObjectKey> one = List.of(keys.get(i));
                lookups.add(CompletableFuture.supplyAsync(() -> adapter.lookupAndLock(one).join()));
            }
            lookups.forEach(lookup -> assertThat(lookup.join().results()).containsExactly(KeyResult.OK));
            assertThat(rec.lookupThreads).hasSize(8).noneMatch(thread -> thread.getName().startsWith("kvtier-mc-"));
            assertThat(adapter.status()).containsEntry("in_flight", 0);
        }
    }
}
