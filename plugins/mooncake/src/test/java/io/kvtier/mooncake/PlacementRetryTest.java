package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.SIZE;
import static io.kvtier.mooncake.Fixtures.await;
import static io.kvtier.mooncake.Fixtures.empty;
import static io.kvtier.mooncake.Fixtures.filled;
import static io.kvtier.mooncake.Fixtures.keys;
import static io.kvtier.mooncake.SilentNodeTest.until;
import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store whose put the master placed on a suspect node is placed again. The double's nodes a, b
 * and c take one replica each in turn (the k-th key put lands on node k mod 3), and a node listed
 * in the refusing file fails every transfer at once, as a dead node, or one the connect guard
 * refuses, does.
 */
class PlacementRetryTest {
    @TempDir
    Path dir;
    private final MetricRegistry metrics = new MetricRegistry();
    private final List<MooncakeStoreAdapter> adapters = new ArrayList<>();

    @AfterEach
    void close() {
        adapters.forEach(MooncakeStoreAdapter::close);
    }

    private MooncakeStoreAdapter adapter() {
        MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(),
                TestDouble.body("testdouble_nodes", "a,b,c", "replica_num", 1, "testdouble_refusing_nodes_file",
                        refusing().toString()),
                TestDouble.context("mc", metrics, Optional.empty()));
        adapters.add(adapter);
        return adapter;
    }

    private Path refusing() {
        return dir.resolve("refusing-nodes");
    }

    private long retries() {
        return metrics.counter("kvtier.l2.mc.retries").getCount();
    }

    @Test
    void aStorePlacedOnASuspectNodeIsPlacedAgainElsewhereAndLoadsWhole() throws Exception {
        MooncakeStoreAdapter adapter = adapter();
        assertThat(await(adapter.store(keys(0, 3), filled(new OffHeapRegion(3 * SIZE), 3, 1))).allOk()).isTrue();
        Files.writeString(refusing(), "c");
        // Key 2 is on c: its read fails, and c becomes suspect.
        assertThat(await(adapter.load(keys(2, 1), empty(new OffHeapRegion(SIZE), 1))).results())
                .containsOnly(KeyResult.ERROR);
        until("c to be suspect", () -> List.of("c").equals(adapter.status().get("suspect_nodes")));
        long before = retries();

        // Keys 3 to 11 are put on a, b, c, a, b, c, a, b, c: three on c, put again on a, b, c (one on
        // c again), and that one on a.
        OffHeapRegion source = new OffHeapRegion(9 * SIZE);
        BatchResult stored = await(adapter.store(keys(3, 9), filled(source, 9, 2)));
        assertThat(stored.results()).containsOnly(KeyResult.OK);
        assertThat(retries() - before).isEqualTo(4);

        OffHeapRegion target = new OffHeapRegion(9 * SIZE);
        assertThat(await(adapter.load(keys(3, 9), empty(target, 9))).allOk()).isTrue();
        assertThat(target.read(0, 9 * SIZE)).isEqualTo(source.read(0, 9 * SIZE));
    }

    @Test
    void aStoreThatFailedWhileNoNodeIsSuspectIsLeftToTheHost() throws Exception {
        MooncakeStoreAdapter adapter = adapter();
        Files.writeString(refusing(), "c");
        BatchResult stored = await(adapter.store(keys(0, 3), filled(new OffHeapRegion(3 * SIZE), 3, 1)));
        assertThat(stored.results()).containsExactly(KeyResult.OK, KeyResult.OK, KeyResult.ERROR);
        assertThat(stored.error(2).orElseThrow().code()).hasValue(MooncakeCodes.TRANSFER_FAIL);
        assertThat(retries()).isZero();
    }
}
