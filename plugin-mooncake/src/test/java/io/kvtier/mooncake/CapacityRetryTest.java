package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.SIZE;
import static io.kvtier.mooncake.Fixtures.await;
import static io.kvtier.mooncake.Fixtures.empty;
import static io.kvtier.mooncake.Fixtures.filled;
import static io.kvtier.mooncake.Fixtures.keys;
import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.mooncake.batch.CapacityRetry;
import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A store Mooncake finds no room for (NO_AVAILABLE_HANDLE, as a full cluster answers until its
 * master evicted) is stored again after a pause, up to {@link CapacityRetry#TRIES} tries in all;
 * the double refuses the first n puts of every key.
 */
class CapacityRetryTest {
    private final MetricRegistry metrics = new MetricRegistry();
    private final List<MooncakeStoreAdapter> adapters = new ArrayList<>();

    @AfterEach
    void close() {
        adapters.forEach(MooncakeStoreAdapter::close);
    }

    private MooncakeStoreAdapter refusingFirstPuts(int puts) {
        MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(),
                TestDouble.body("testdouble_no_room_puts", puts), TestDouble.context("full", metrics, Optional.empty()));
        adapters.add(adapter);
        return adapter;
    }

    private long capacityRetries() {
        return metrics.counter("kvtier.l2.full.capacity_retries").getCount();
    }

    @Test
    void aStoreRefusedForRoomIsStoredOnALaterTryAndLoadsWhole() {
        MooncakeStoreAdapter adapter = refusingFirstPuts(CapacityRetry.TRIES - 1);
        OffHeapRegion src = new OffHeapRegion(4 * SIZE);
        BatchResult stored = await(adapter.store(keys(0, 4), filled(src, 4, 9)));
        assertThat(stored.results()).containsOnly(KeyResult.OK);
        assertThat(stored.newBytes()).isEqualTo(4L * SIZE);
        assertThat(capacityRetries()).isEqualTo(4L * (CapacityRetry.TRIES - 1));

        OffHeapRegion dst = new OffHeapRegion(4 * SIZE);
        assertThat(await(adapter.load(keys(0, 4), empty(dst, 4))).allOk()).isTrue();
        assertThat(dst.read(0, 4 * SIZE)).isEqualTo(src.read(0, 4 * SIZE));
    }

    @Test
    void aStoreRefusedOnEveryTryIsANoCapacityErrorAndNothingIsStored() {
        MooncakeStoreAdapter adapter = refusingFirstPuts(CapacityRetry.TRIES);
        OffHeapRegion src = new OffHeapRegion(2 * SIZE);
        BatchResult stored = await(adapter.store(keys(0, 2), filled(src, 2, 9)));
        assertThat(stored.results()).containsOnly(KeyResult.ERROR);
        assertThat(stored.error(0).orElseThrow().kind()).isEqualTo(ErrorKind.NO_CAPACITY);
        assertThat(stored.error(0).orElseThrow().code()).hasValue(MooncakeCodes.NO_AVAILABLE_HANDLE);
        assertThat(capacityRetries()).isEqualTo(2L * (CapacityRetry.TRIES - 1));
        assertThat(await(adapter.lookupAndLock(keys(0, 2))).results()).containsOnly(KeyResult.MISSING);
        assertThat(adapter.usage().totalBytesUsed()).isZero();
    }
}
