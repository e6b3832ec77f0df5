package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.SIZE;
import static io.kvtier.mooncake.Fixtures.await;
import static io.kvtier.mooncake.Fixtures.empty;
import static io.kvtier.mooncake.Fixtures.filled;
import static io.kvtier.mooncake.Fixtures.keys;
import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What each operation does with a transient code: lookups and loads ask once more, stores and
 * deletes report it. Two clients of one "cluster" in the double: one stores, the other's first
 * operation on some keys gets TRANSFER_FAIL (-800).
 */
class TransientRetryTest {
    private final String master = "double-" + UUID.randomUUID() + ":1";
    private final MetricRegistry metrics = new MetricRegistry();
    private final List<MooncakeStoreAdapter> adapters = new ArrayList<>();

    @AfterEach
    void close() {
        adapters.forEach(MooncakeStoreAdapter::close);
    }

    private MooncakeStoreAdapter client(String name, List<ObjectKey> failOnce) {
        String keys = failOnce.stream().map(ObjectKey::wireString).collect(Collectors.joining(","));
        MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(),
                failOnce.isEmpty() ? TestDouble.body("master_server_addr", master)
                        : TestDouble.body("master_server_addr", master, "testdouble_fail_once_keys", keys),
                TestDouble.context(name, metrics, Optional.empty()));
        adapters.add(adapter);
        return adapter;
    }

    private long retries(String name) {
        return metrics.counter("kvtier.l2." + name + ".retries").getCount();
    }

    @Test
    void aLoadAsksOnceMoreForTheKeysWithATransientCodeAndGetsTheRightBytes() {
        List<ObjectKey> keys = keys(0, 4);
        OffHeapRegion src = new OffHeapRegion(4 * SIZE);
        assertThat(await(client("writer", List.of()).store(keys, filled(src, 4, 3))).allOk()).isTrue();

        MooncakeStoreAdapter reader = client("reader", List.of(keys.get(1), keys.get(2)));
        OffHeapRegion dst = new OffHeapRegion(4 * SIZE);
        BatchResult loaded = await(reader.load(keys, empty(dst, 4)));
        assertThat(loaded.results()).containsOnly(KeyResult.OK);
        assertThat(dst.read(0, 4 * SIZE)).isEqualTo(src.read(0, 4 * SIZE));
        assertThat(retries("reader")).isEqualTo(2);
    }

    /**
     * A failed transfer that still delivers its bytes afterwards (the double's late bytes: 0xEE
     * into the failed read's buffer, at the end of the next read call, which is the retry): the
     * late bytes are received only while the batch's guard is held, so they never reach L1 once it completed.
     */
    @Test
    void aLoadAskedAgainAfterAFailedTransferIsNotReachedByThatTransfersLateBytes() {
        List<ObjectKey> keys = keys(0, 4);
        OffHeapRegion src = new OffHeapRegion(4 * SIZE);
        MooncakeStoreAdapter writer = TestDouble.create(TestDouble.provider(),
                TestDouble.body("master_server_addr", master, "testdouble_nodes", "a,b", "replica_num", 2),
                TestDouble.context("writer", metrics, Optional.empty()));
        adapters.add(writer);
        assertThat(await(writer.store(keys, filled(src, 4, 7))).allOk()).isTrue();

        // One key: its failure makes its node suspect, and the retry reads the other replica.
        String late = keys.get(1).wireString();
        MooncakeStoreAdapter reader = TestDouble.create(TestDouble.provider(),
                TestDouble.body("master_server_addr", master, "testdouble_late_bytes_keys", late),
                TestDouble.context("reader", metrics, Optional.empty()));
        adapters.add(reader);
        OffHeapRegion dst = new OffHeapRegion(4 * SIZE);
        BatchResult loaded = await(reader.load(keys, empty(dst, 4)));
        assertThat(loaded.results()).containsOnly(KeyResult.OK);
        assertThat(retries("reader")).isEqualTo(1);
        assertThat(dst.read(0, 4 * SIZE)).isEqualTo(src.read(0, 4 * SIZE));
    }

    @Test
    void aLookupAsksOnceMoreForTheKeysWithATransientCode() {
        List<ObjectKey> keys = keys(0, 2);
        OffHeapRegion src = new OffHeapRegion(2 * SIZE);
        assertThat(await(client("writer", List.of()).store(keys, filled(src, 2, 5))).allOk()).isTrue();

        MooncakeStoreAdapter reader = client("reader", List.of(keys.get(0), keys(7, 1).get(0)));
        BatchResult found = await(reader.lookupAndLock(List.of(keys.get(0), keys.get(1), keys(7, 1).get(0))));
        assertThat(found.results()).containsExactly(KeyResult.OK, KeyResult.OK, KeyResult.MISSING);
        assertThat(retries("reader")).isEqualTo(2);
    }

    @Test
    void aStoreIsNotRetriedItReportsTheTransientCode() {
        ObjectKey key = keys(9, 1).get(0);
        MooncakeStoreAdapter client = client("writer", List.of(key));
        BatchResult stored = await(client.store(List.of(key), filled(new OffHeapRegion(SIZE), 1, 1)));
        assertThat(stored.results()).containsExactly(KeyResult.ERROR);
        assertThat(stored.firstError()).isEqualTo("Mooncake batch_put_from failed for key " + key + ": TRANSFER_FAIL (-800)");
        assertThat(retries("writer")).isZero();
        assertThat(await(client.lookupAndLock(List.of(key))).results()).containsExactly(KeyResult.MISSING);
    }
}
