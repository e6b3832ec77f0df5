package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.await;
import static io.kvtier.mooncake.Fixtures.filled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.kvtier.spi.ObjectKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AdapterMetricsTest {
    private final MetricRegistry metrics = new MetricRegistry();

    @Test
    void twoInstancesInOneJvmKeepDistinctMetrics() {
        MooncakeStoreProvider provider = TestDouble.provider();
        try (MooncakeStoreAdapter a = TestDouble.create(provider, TestDouble.body(), TestDouble.context("a", metrics, Optional.empty()));
             MooncakeStoreAdapter b = TestDouble.create(provider, TestDouble.body("per_op_workers", Map.of("lookup", 1)),
                     TestDouble.context("b", metrics, Optional.empty()))) {
            List<ObjectKey> keys = Fixtures.keys(0, 4);
            OffHeapRegion region = new OffHeapRegion(4 * 2048);
            await(a.store(keys, filled(region, 4, 0)));
            await(a.lookupAndLock(Fixtures.keys(0, 6)));
            await(a.load(keys, filled(region, 4, 0)));
            await(b.lookupAndLock(keys));

            assertThat(metrics.getTimers().get("kvtier.l2.a.store").getCount()).isEqualTo(1);
            assertThat(metrics.getTimers().get("kvtier.l2.b.store").getCount()).isZero();
            assertThat(metrics.getTimers().get("kvtier.l2.a.lookup").getCount()).isEqualTo(1);
            assertThat(metrics.getTimers().get("kvtier.l2.a.load").getCount()).isEqualTo(1);
            assertThat(metrics.getTimers().get("kvtier.l2.b.lookup").getCount()).isEqualTo(1);
            assertThat(metrics.getTimers().get("kvtier.l2.a.lookup.lane_wait").getCount()).isEqualTo(1);
            assertThat(metrics.getTimers().get("kvtier.l2.a.lookup.native_call").getCount()).isEqualTo(1);
            assertThat(metrics.getTimers().get("kvtier.l2.a.store.native_call").getCount()).isEqualTo(1);
            assertThat(metrics.getTimers().get("kvtier.l2.b.store.lane_wait").getCount()).isZero();
            assertThat(metrics.getMeters().get("kvtier.l2.a.bytes_stored").getCount()).isEqualTo(4 * 2048);
            assertThat(metrics.getMeters().get("kvtier.l2.a.bytes_loaded").getCount()).isEqualTo(4 * 2048);
            assertThat(metrics.getCounters().get("kvtier.l2.a.hits").getCount()).isEqualTo(4);
            assertThat(metrics.getCounters().get("kvtier.l2.a.misses").getCount()).isEqualTo(2);
            assertThat(metrics.getCounters().get("kvtier.l2.b.misses").getCount()).isEqualTo(4);
            assertThat(metrics.getCounters().get("kvtier.l2.a.errors").getCount()).isZero();
            assertThat(metrics.getGauges()).containsOnlyKeys(
                    "kvtier.l2.a.lane.shared.queue_depth", "kvtier.l2.a.lane.store.queue_depth", "kvtier.l2.a.l1.registered_bytes",
                    "kvtier.l2.b.lane.lookup.queue_depth", "kvtier.l2.b.lane.shared.queue_depth", "kvtier.l2.b.lane.store.queue_depth",
                    "kvtier.l2.b.l1.registered_bytes", "kvtier.l2.a.healthy", "kvtier.l2.b.healthy",
                    "kvtier.l2.a.lane.abandoned_calls", "kvtier.l2.b.lane.abandoned_calls",
                    "kvtier.l2.a.segment.size_bytes", "kvtier.l2.b.segment.size_bytes");
            assertThat(metrics.getGauges().get("kvtier.l2.a.healthy").getValue()).isEqualTo(1);
        }
    }

    /**
     * Two lookups at once on a lane of one thread, each held 500 ms by the double: every call takes
     * its 500 ms, and the second batch waits for the lane as long as the first call ran, less the
     * time between the two submissions.
     */
    @Test
    void aBatchQueuedBehindAnotherWaitsForTheLane() {
        long held = 500;
        try (MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(),
                TestDouble.body("per_op_workers", Map.of("lookup", 1), "testdouble_delay_ms_exists", held),
                TestDouble.context("q", metrics, Optional.empty()))) {
            long before = System.nanoTime();
            var first = adapter.lookupAndLock(Fixtures.keys(0, 2));
            var second = adapter.lookupAndLock(Fixtures.keys(2, 4));
            long between = System.nanoTime() - before;
            await(first);
            await(second);

            Timer calls = metrics.getTimers().get("kvtier.l2.q.lookup.native_call");
            assertThat(calls.getCount()).isEqualTo(2);
            assertThat(calls.getSnapshot().getMin()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(held));
            Timer waits = metrics.getTimers().get("kvtier.l2.q.lookup.lane_wait");
            assertThat(waits.getCount()).isEqualTo(2);
            assertThat(waits.getSnapshot().getMax()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(held) - between);
        }
    }

    @Test
    void theSegmentGaugeIsWhatTheInstanceContributes() {
        MooncakeStoreProvider provider = TestDouble.provider();
        try (MooncakeStoreAdapter node = TestDouble.create(provider, TestDouble.body("global_segment_size", "536870912"),
                TestDouble.context("node", metrics, Optional.empty()));
             MooncakeStoreAdapter client = TestDouble.create(provider, TestDouble.body("global_segment_size", 0),
                     TestDouble.context("client", metrics, Optional.empty()));
             MooncakeStoreAdapter undeclared = TestDouble.create(provider, TestDouble.body(),
                     TestDouble.context("undeclared", metrics, Optional.empty()))) {
            assertThat(metrics.getGauges().get("kvtier.l2.node.segment.size_bytes").getValue()).isEqualTo(536870912L);
            assertThat(metrics.getGauges().get("kvtier.l2.client.segment.size_bytes").getValue()).isEqualTo(0L);
            // Mooncake's own default, which its setup takes when the declaration gives none.
            assertThat(metrics.getGauges().get("kvtier.l2.undeclared.segment.size_bytes").getValue()).isEqualTo(16L << 20);
        }
        assertThat(metrics.getGauges()).isEmpty();
    }

    @Test
    void errorsCountFailedKeysAndFailedBatches() {
        ObjectKey failing = TestDouble.key(1);
        try (MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(),
                TestDouble.body("testdouble_fail_keys", failing.wireString(), "testdouble_fail_batch", "remove"),
                TestDouble.context("e", metrics, Optional.empty()))) {
            await(adapter.lookupAndLock(Fixtures.keys(0, 3)));
            assertThat(metrics.getCounters().get("kvtier.l2.e.errors").getCount()).isEqualTo(1);
            assertThatThrownBy(() -> await(adapter.delete(Fixtures.keys(0, 3))));
            assertThat(metrics.getCounters().get("kvtier.l2.e.errors").getCount()).isEqualTo(4);
        }
    }

    @Test
    void aClashingPrefixIsAnError() {
        MooncakeStoreProvider provider = TestDouble.provider();
        try (MooncakeStoreAdapter a = TestDouble.create(provider, TestDouble.body(), TestDouble.context("same", metrics, Optional.empty()))) {
            assertThatThrownBy(() -> TestDouble.create(provider, TestDouble.body(), TestDouble.context("same", metrics, Optional.empty())))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("metric prefixes must be unique");
            assertThat(a.status()).containsEntry("is_healthy", true);
        }
    }
}
