package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.filled;
import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class WorkerLanesTest {

    /**
     * The point of per-op lanes (LMCache #3227): with stores blocked in Mooncake for many seconds
     * in total, a lookup on its own lane still completes while the stores are pending. The
     * condition is checked directly (the last store is still pending when the lookup is done);
     * nothing here depends on how fast the machine is, beyond a generous timeout.
     */
    @Test
    void slowStoresDoNotDelayLookupsThatHaveTheirOwnLane() throws Exception {
        int stores = 30;
        Map<String, Object> body = TestDouble.body("per_op_workers", Map.of("lookup", 1, "store", 1),
                "testdouble_delay_ms_put", 1000);
        try (MooncakeStoreAdapter adapter = TestDouble.create(body)) {
            OffHeapRegion region = new OffHeapRegion(2048);
            List<CompletableFuture<BatchResult>> pending = new ArrayList<>();
            for (int i = 0; i < stores; i++) {
                pending.add(adapter.store(List.of(TestDouble.key(i)), filled(region, 1, i)));
            }
            BatchResult lookup = adapter.lookupAndLock(List.of(TestDouble.key(1000))).get(20, TimeUnit.SECONDS);
            assertThat(lookup.results()).containsExactly(KeyResult.MISSING);
            assertThat(pending.get(stores - 1)).as("the store backlog is still there").isNotDone();
        }
    }

    @Test
    void threadsAreNamedPerInstanceAndLaneAndAreDaemons() {
        Map<String, Object> body = TestDouble.body("per_op_workers", Map.of("retrieve", 2), "num_workers", 2);
        try (MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(), body, TestDouble.context("lanes"))) {
            List<ObjectKey> keys = List.of(TestDouble.key(1));
            OffHeapRegion region = new OffHeapRegion(2048);
            adapter.store(keys, filled(region, 1, 0)).join();
            adapter.load(keys, List.of(region.slice(0, 2048))).join();
            adapter.lookupAndLock(keys).join();
            Map<String, Boolean> threads = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("kvtier-lanes-"))
                    .collect(Collectors.toMap(Thread::getName, Thread::isDaemon, (a, b) -> a));
            assertThat(threads).containsEntry("kvtier-lanes-shared-1", true).containsEntry("kvtier-lanes-load-1", true)
                    .containsEntry("kvtier-lanes-store-1", true).containsEntry("kvtier-lanes-health-probe", true).containsEntry("kvtier-lanes-health-watch", true);
            assertThat(threads).containsEntry("kvtier-lanes-deadline", true).containsEntry("kvtier-lanes-nodes-probe", true);
            // One scheduler judges the master and the storage nodes: health-watch.
            assertThat(threads.keySet())
                    .allMatch(n -> n.matches("kvtier-lanes-((shared|load|store)-[12]|health-(probe|watch)|deadline|nodes-probe)"));
        }
    }

    @Test
    void oneBatchIsOneNativeCall() {
        RecordingNative[] rec = new RecordingNative[1];
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec[0] = new RecordingNative(lib));
        try (MooncakeStoreAdapter adapter = TestDouble.create(provider, TestDouble.body("num_workers", 4), TestDouble.context("mc"))) {
            List<ObjectKey> keys = Fixtures.keys(0, 64);
            OffHeapRegion region = new OffHeapRegion(64 * 2048);
            adapter.store(keys, filled(region, 64, 0)).join();
            adapter.lookupAndLock(keys).join();
            assertThat(rec[0].batchCalls).hasValue(2);
        }
    }

    @Test
    void queueDepthIsVisiblePerPool() {
        // One store thread, each store held 2 s in the double: right after submitting four, the
        // first is running or about to, and the others wait in the store pool's queue.
        Map<String, Object> body = TestDouble.body("per_op_workers", Map.of("store", 1), "testdouble_delay_ms_put", 2000);
        MetricRegistry metrics = new MetricRegistry();
        try (MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(), body,
                TestDouble.context("q", metrics, Optional.empty()))) {
            OffHeapRegion region = new OffHeapRegion(2048);
            for (int i = 0; i < 4; i++) {
                adapter.store(List.of(TestDouble.key(i)), filled(region, 1, i));
            }
            Object depth = metrics.getGauges().get("kvtier.l2.q.lane.store.queue_depth").getValue();
            assertThat((Integer) depth).isBetween(3, 4);
            assertThat(metrics.getGauges().get("kvtier.l2.q.lane.shared.queue_depth").getValue()).isEqualTo(0);
        }
    }
}
