package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.filled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.mooncake.health.Timings;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CloseTest {
    private final MetricRegistry metrics = new MetricRegistry();
    private RecordingNative rec;

    private MooncakeStoreAdapter create(Map<String, Object> body) {
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec = new RecordingNative(lib));
        return TestDouble.create(provider, body, TestDouble.context("mc", metrics, Optional.empty()));
    }

    private static void assertClosedError(CompletableFuture<?> future) {
        assertClosedError(future, "mc");
    }

    private static void assertClosedError(CompletableFuture<?> future, String instance) {
        assertThatThrownBy(() -> future.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("mooncake_store adapter '" + instance + "' is closed");
    }

    @Test
    void closeFailsRunningAndQueuedBatchesAndDestroysOnce() throws Exception {
        // One retrieve thread and every get held 1.5 s in the double: when close() is called,
        // one load is running inside native code and the others are queued.
        MooncakeStoreAdapter adapter = create(TestDouble.body("per_op_workers", Map.of("retrieve", 1),
                "testdouble_delay_ms_get", 1500));
        OffHeapRegion region = new OffHeapRegion(3 * 2048);
        List<ObjectKey> keys = Fixtures.keys(0, 3);
        List<L1Slice> slices = filled(region, 3, 0);
        adapter.store(keys, slices).join();
        List<CompletableFuture<BatchResult>> loads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            loads.add(adapter.load(List.of(keys.get(i)), List.of(slices.get(i))));
        }
        assertThat(rec.loadEntered.await(10, TimeUnit.SECONDS)).as("a load entered native code").isTrue();
        assertThat(rec.loadsInNative).as("one load runs, the others queue").hasValue(1);

        adapter.close();

        loads.forEach(CloseTest::assertClosedError);
        assertThat(rec.destroys).hasValue(1);
        adapter.close();
        adapter.close();
        assertThat(rec.destroys).as("destroyed exactly once").hasValue(1);
        assertThat(adapter.status()).containsEntry("is_healthy", false).containsEntry("closed", true);
        assertThat(metrics.getGauges()).isEmpty();
        // Totals survive close, so a host can still report them.
        assertThat(metrics.getTimers().get("kvtier.l2.mc.store").getCount()).isEqualTo(1);
    }

    @Test
    void closeStopsTheHealthProbeEvenWhenANativeCallOutlastsTheDrain() throws Exception {
        // A load held 3 s in the double outlasts a 200 ms drain: the client must be left in place,
        // and the probe must stop all the same, or it would go on calling a leaked client.
        Timings shortDrain = new Timings(Duration.ofMillis(20), Duration.ofMillis(500), Duration.ofMillis(200), Timings.DEFAULTS.nodeSweep(), Timings.DEFAULTS.nodeProbeInterval(), Timings.DEFAULTS.metRecently());
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec = new RecordingNative(lib), shortDrain);
        MooncakeStoreAdapter adapter = TestDouble.create(provider, TestDouble.body("testdouble_delay_ms_get", 3000),
                TestDouble.context("stuck", metrics, Optional.empty()));
        OffHeapRegion region = new OffHeapRegion(2048);
        List<ObjectKey> keys = Fixtures.keys(0, 1);
        adapter.store(keys, filled(region, 1, 0)).join();
        CompletableFuture<BatchResult> load = adapter.load(keys, List.of(region.slice(0, 2048)));
        assertThat(rec.loadEntered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(probeThread("kvtier-stuck-health-probe")).as("the probe runs before close").isPresent();

        adapter.close();

        assertThat(rec.loadsInNative).as("the load is still in native code").hasValue(1);
        assertThat(rec.destroys).as("a client under a running call is left in place").hasValue(0);
        assertThat(probeThread("kvtier-stuck-health-probe")).as("the probe has stopped").isEmpty();
        assertClosedError(load, "stuck");
    }

    private static Optional<Thread> probeThread(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name) && t.isAlive()).findAny();
    }

    @Test
    void everyOperationFailsAfterClose() {
        MooncakeStoreAdapter adapter = create(TestDouble.body());
        adapter.close();
        OffHeapRegion region = new OffHeapRegion(2048);
        List<ObjectKey> keys = List.of(TestDouble.key(0));
        assertClosedError(adapter.store(keys, List.of(region.slice(0, 2048))));
        assertClosedError(adapter.lookupAndLock(keys));
        assertClosedError(adapter.load(keys, List.of(region.slice(0, 2048))));
        assertClosedError(adapter.delete(keys));
        adapter.unlock(keys);
        assertThat(adapter.usage().totalBytesUsed()).isZero();
    }

    @Test
    void closeFromACallbackOnALaneThreadDoesNotDeadlock() throws Exception {
        MooncakeStoreAdapter adapter = create(TestDouble.body());
        CompletableFuture<Void> closedInCallback = adapter.lookupAndLock(List.of(TestDouble.key(0)))
                .thenRun(adapter::close);
        closedInCallback.get(30, TimeUnit.SECONDS);
        assertThat(rec.destroyed.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(rec.destroys).hasValue(1);
    }

    @Test
    void rdmaCloseUnregistersAfterTheLanesDrained() {
        OffHeapRegion l1 = new OffHeapRegion(8192);
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec = new RecordingNative(lib));
        MooncakeStoreAdapter adapter = TestDouble.create(provider,
                TestDouble.body("protocol", "rdma", "testdouble_delay_ms_put", 1500),
                TestDouble.context("mc", metrics, Optional.of(l1.desc(true))));
        CompletableFuture<BatchResult> running = adapter.store(List.of(TestDouble.key(0)), List.of(l1.slice(0, 1024)));
        adapter.close();
        assertClosedError(running);
        assertThat(rec.unregistered).containsExactly(l1.address);
        assertThat(rec.destroys).hasValue(1);
    }
}
