package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.filled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.mooncake.health.MasterUnreachableException;
import io.kvtier.mooncake.health.Timings;
import io.kvtier.spi.BatchFailedException;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.Health;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The master's health as the adapter reports and acts on it, with the double's master taken "down" by a file. */
class HealthTest {
    private static final Duration FIVE_SECONDS = Duration.ofSeconds(5);
    /** A probe every 20 ms: the changes come within a few of them, not within seconds. */
    private static final Timings PROBE_OFTEN = new Timings(Duration.ofMillis(20), Duration.ofMillis(500), Duration.ofSeconds(30), Timings.DEFAULTS.nodeSweep(), Timings.DEFAULTS.nodeProbeInterval(), Timings.DEFAULTS.metRecently());
    private final MetricRegistry metrics = new MetricRegistry();
    private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();

    private MooncakeStoreAdapter create(Path downMarker) {
        MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(lib -> lib, PROBE_OFTEN),
                TestDouble.body("testdouble_master_down_while", downMarker.toString()),
                TestDouble.context("mc", metrics, Optional.empty()));
        adapter.addListener(new L2AdapterListener() {
            @Override
            public void onHealthChanged(boolean healthy, String reason) {
                heard.add(healthy + ": " + reason);
            }
        });
        return adapter;
    }

    private String nextChangeWithin(Duration limit) throws InterruptedException {
        String change = heard.poll(limit.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(change).as("a health change within " + limit).isNotNull();
        return change;
    }

    @Test
    void aMasterThatGoesAwayIsReportedAndBatchesFailFastUntilItReturns(@TempDir Path dir) throws Exception {
        Path down = dir.resolve("master-down");
        try (MooncakeStoreAdapter adapter = create(down)) {
            List<ObjectKey> keys = List.of(TestDouble.key(1), TestDouble.key(2));
            OffHeapRegion region = new OffHeapRegion(2 * 2048);
            assertThat(adapter.store(keys, filled(region, 2, 0)).get(10, TimeUnit.SECONDS).results())
                    .containsOnly(KeyResult.OK);
            assertThat(adapter.status()).containsEntry("is_healthy", true).doesNotContainKey("unhealthy_reason");

            Files.createFile(down);
            // The reason names the master probed (the double's is random).
            assertThat(nextChangeWithin(FIVE_SECONDS)).matches("false: the master does not answer: RPC_FAIL \\(-900\\) \\(double-.*:1\\)");
            assertThat(adapter.status()).containsEntry("is_healthy", false)
                    .hasEntrySatisfying("unhealthy_reason", reason -> assertThat((String) reason)
                            .matches("the master does not answer: RPC_FAIL \\(-900\\) \\(double-.*:1\\)"));
            Health unhealthy = adapter.health();
            assertThat(unhealthy.healthy()).isFalse();
            assertThat(unhealthy.unhealthyParts()).containsExactly(Map.entry("master", unhealthy.reason()));
            assertThat(unhealthy.since()).hasValueSatisfying(since -> assertThat(since).isBeforeOrEqualTo(Instant.now()));
            assertThat(metrics.getGauges().get("kvtier.l2.mc.healthy").getValue()).isEqualTo(0);

            long errorsBefore = metrics.counter("kvtier.l2.mc.errors").getCount();
            CompletableFuture<BatchResult> refused = adapter.load(keys, List.of(region.slice(0, 2048), region.slice(2048, 2048)));
            assertThat(refused).isCompletedExceptionally();
            assertThatThrownBy(refused::get).isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOf(MasterUnreachableException.class)
                    .satisfies(e -> assertThat(((BatchFailedException) e).error().kind()).isEqualTo(ErrorKind.TRANSIENT))
                    .hasMessage("mooncake_store adapter 'mc' is unhealthy, batch not sent: " + unhealthy.reason());
            assertThat(metrics.counter("kvtier.l2.mc.errors").getCount()).isEqualTo(errorsBefore + 2);

            Files.delete(down);
            assertThat(nextChangeWithin(FIVE_SECONDS)).matches("true: the master answers again \\(double-.*:1\\)");
            assertThat(adapter.status()).containsEntry("is_healthy", true);
            assertThat(adapter.health().unhealthyParts()).isEmpty();
            assertThat(adapter.health().since().orElseThrow()).isAfter(unhealthy.since().orElseThrow());
            assertThat(metrics.getGauges().get("kvtier.l2.mc.healthy").getValue()).isEqualTo(1);
            assertThat(adapter.lookupAndLock(keys).get(10, TimeUnit.SECONDS).results()).containsOnly(KeyResult.OK);
        }
    }

    @Test
    void errorsSeenBeforeTheProbeNoticesAreErrorsNeverMisses(@TempDir Path dir) throws Exception {
        Path down = dir.resolve("master-down");
        try (MooncakeStoreAdapter adapter = create(down)) {
            List<ObjectKey> keys = List.of(TestDouble.key(1));
            Files.createFile(down);
            // Whichever comes first, the probe or this batch, the key must not read as missing.
            try {
                BatchResult result = adapter.lookupAndLock(keys).get(10, TimeUnit.SECONDS);
                assertThat(result.results()).containsExactly(KeyResult.ERROR);
                assertThat(result.firstError()).contains("RPC_FAIL (-900)");
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(MasterUnreachableException.class);
            }
        }
    }

    @Test
    void statusNeverShowsAnUnhealthyInstanceWithoutItsReason() {
        // A master that answers every other probe, probed every millisecond: the health flips
        // hundreds of times while status() is read, and each status must agree with itself.
        AtomicInteger probes = new AtomicInteger();
        RecordingNative[] rec = new RecordingNative[1];
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec[0] = new RecordingNative(lib),
                new Timings(Duration.ofMillis(1), Duration.ofMillis(500), Duration.ofSeconds(30), Timings.DEFAULTS.nodeSweep(), Timings.DEFAULTS.nodeProbeInterval(), Timings.DEFAULTS.metRecently()));
        rec[0].healthCheck = () -> probes.incrementAndGet() % 2 == 0 ? 0 : (int) MooncakeCodes.RPC_FAIL;
        Logger log = Logger.getLogger(MooncakeStoreAdapter.class.getName());
        Level level = log.getLevel();
        log.setLevel(Level.OFF); // a line per flip
        try (MooncakeStoreAdapter adapter = TestDouble.create(provider, TestDouble.body(),
                TestDouble.context("flaps", metrics, Optional.empty()))) {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (probes.get() < 400 && System.nanoTime() < deadline) {
                Map<String, Object> status = adapter.status();
                if (status.get("is_healthy").equals(false)) {
                    assertThat(status.get("unhealthy_reason")).as("the reason of an unhealthy status").isNotEqualTo("");
                }
            }
            assertThat(probes.get()).as("the probe flapped").isGreaterThanOrEqualTo(400);
        } finally {
            log.setLevel(level);
        }
    }
}
