package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.mooncake.RecordingNative.Registration;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.l1.L1Registration;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** RDMA L1 preregistration: block split, rollback, boundary checks, unregistration on close. */
class L1RegistrationTest {
    private static final int REGION = 10_000;
    private static final int BLOCK = 4096;

    private final MetricRegistry metrics = new MetricRegistry();
    private final OffHeapRegion l1 = new OffHeapRegion(REGION);
    private RecordingNative rec;

    private MooncakeStoreAdapter rdma(Object... extra) {
        Map<String, Object> body = TestDouble.body(extra);
        body.put("protocol", "rdma");
        body.put("testdouble_max_mr_size", BLOCK);
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec = new RecordingNative(lib));
        return TestDouble.create(provider, body, TestDouble.context("rdma", metrics, Optional.of(l1.desc(true))));
    }

    @Test
    void regionIsRegisteredInMaxMrSizeBlocksIncludingAPartialOne() {
        try (MooncakeStoreAdapter adapter = rdma()) {
            assertThat(rec.registered).containsExactly(
                    new Registration(l1.address, BLOCK, 0),
                    new Registration(l1.address + BLOCK, BLOCK, 0),
                    new Registration(l1.address + 2 * BLOCK, REGION - 2 * BLOCK, 0));
            assertThat(adapter.status())
                    .containsEntry("registration_blocks", 3)
                    .containsEntry("registration_block_size", (long) BLOCK)
                    .containsEntry("registered_bytes", (long) REGION);
            assertThat(metrics.getGauges().get("kvtier.l2.rdma.l1.registered_bytes").getValue()).isEqualTo((long) REGION);
            assertThat(rec.unregistered).isEmpty();
        }
        assertThat(rec.unregistered).containsExactly(l1.address, l1.address + BLOCK, l1.address + 2 * BLOCK);
        assertThat(rec.destroys).hasValue(1);
    }

    @Test
    void maxMrSizeZeroMeansOneBlock() {
        Map<String, Object> body = TestDouble.body("protocol", "rdma", "testdouble_max_mr_size", 0);
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec = new RecordingNative(lib));
        try (MooncakeStoreAdapter adapter = TestDouble.create(provider, body,
                TestDouble.context("rdma", metrics, Optional.of(l1.desc(true))))) {
            assertThat(rec.registered).containsExactly(new Registration(l1.address, REGION, 0));
            assertThat(adapter.status()).containsEntry("registration_blocks", 1);
        }
    }

    @Test
    void failureOfBlockKRollsBackKMinusOneToZeroInReverse() {
        for (int k = 0; k < 3; k++) {
            int failAt = k;
            assertThatThrownBy(() -> rdma("testdouble_fail_register_at", failAt))
                    .as("block %d fails", k)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("Mooncake preregister_l1_memory failed")
                    .hasMessageContaining("block " + k + " (0-based) of 3");
            List<Long> expectedRollback = new ArrayList<>();
            for (int j = k - 1; j >= 0; j--) {
                expectedRollback.add(l1.address + (long) j * BLOCK);
            }
            assertThat(rec.registered).hasSize(k + 1);
            assertThat(rec.registered.get(k).rc()).isNegative();
            assertThat(rec.unregistered).as("rollback after block %d", k).isEqualTo(expectedRollback);
            assertThat(rec.destroys).hasValue(1);
        }
        assertThat(metrics.getGauges()).isEmpty();
    }

    /** Bad buffers of every kind, each at every position of a 4-key batch, for store and for load. */
    @Test
    void boundaryErrorsAtEveryPositionFailOnlyThatKey() {
        Map<String, Function<OffHeapRegion, L1Slice>> bad = Map.of(
                "Mooncake buffer registration failed: null buffer", r -> r.fakeAddress(0, 64),
                "Mooncake buffer registration failed: zero length", r -> r.slice(100, 0),
                "Buffer is outside of preregistered L1 region; Mooncake lazy registration is disabled",
                r -> new OffHeapRegion(64).slice(0, 64),
                "Buffer crosses preregistered Mooncake regions", r -> r.slice(BLOCK - 32, 64));
        try (MooncakeStoreAdapter adapter = rdma()) {
            int keyBase = 0;
            for (Map.Entry<String, Function<OffHeapRegion, L1Slice>> kind : bad.entrySet()) {
                for (int position = 0; position < 4; position++) {
                    List<ObjectKey> keys = IntStream.range(keyBase, keyBase + 4).mapToObj(TestDouble::key).toList();
                    keyBase += 4;
                    List<L1Slice> slices = new ArrayList<>();
                    for (int i = 0; i < 4; i++) {
                        // Good slices sit in the last block, clear of every bad one.
                        slices.add(i == position ? kind.getValue().apply(l1) : l1.slice(2 * BLOCK + i * 256, 256));
                    }
                    int callsBefore = rec.batchAddresses.size();
                    BatchResult stored = await(adapter.store(keys, slices));
                    assertThat(stored.get(position)).as("%s at %d", kind.getKey(), position).isEqualTo(KeyResult.ERROR);
                    assertThat(stored.count(KeyResult.OK)).isEqualTo(3);
                    assertThat(stored.firstError()).isEqualTo(kind.getKey());
                    assertThat(rec.batchAddresses.subList(callsBefore, rec.batchAddresses.size()))
                            .as("the bad buffer never reaches native code")
                            .hasSize(3)
                            .doesNotContain(slices.get(position).address());

                    BatchResult loaded = await(adapter.load(keys, slices));
                    assertThat(loaded.get(position)).isEqualTo(KeyResult.ERROR);
                    assertThat(loaded.count(KeyResult.OK)).isEqualTo(3);
                    assertThat(loaded.firstError()).isEqualTo(kind.getKey());
                }
            }
        }
    }

    @Test
    void buffersExactlyFillingABlockOrTheRegionPass() {
        try (MooncakeStoreAdapter adapter = rdma()) {
            List<ObjectKey> keys = IntStream.range(0, 3).mapToObj(TestDouble::key).toList();
            List<L1Slice> slices = List.of(l1.slice(0, BLOCK), l1.slice(BLOCK, BLOCK), l1.slice(2 * BLOCK, REGION - 2 * BLOCK));
            assertThat(await(adapter.store(keys, slices)).allOk()).isTrue();
            assertThat(await(adapter.store(List.of(TestDouble.key(9)), List.of(l1.slice(REGION - 1, 1)))).allOk()).isTrue();
        }
    }

    @Test
    void checkIsSafeAgainstOverflowingAddresses() {
        Map<String, String> setup = Map.of("local_hostname", "127.0.0.1", "metadata_server", "P2PHANDSHAKE",
                "master_server_addr", "overflow-test:1", "testdouble_max_mr_size", Integer.toString(BLOCK));
        MooncakeClient client = MooncakeClient.open(TestDouble.binding(), setup, Duration.ofSeconds(5), 1);
        try {
            L1Registration registration = L1Registration.register(client, l1.address, REGION);
            assertThat(registration.check(-1L, 16)).startsWith("Buffer is outside");
            assertThat(registration.check(l1.address + 10, Long.MAX_VALUE)).startsWith("Buffer is outside");
            assertThat(registration.check(l1.address - 1, 2)).startsWith("Buffer is outside");
            assertThat(registration.check(l1.address + REGION, 1)).startsWith("Buffer is outside");
            assertThat(registration.check(l1.address + REGION - 1, 1)).isNull();
            assertThat(registration.check(l1.address + BLOCK - 1, 2)).isEqualTo("Buffer crosses preregistered Mooncake regions");
            registration.close();
            registration.close();
            assertThat(registration.registeredBytes()).isZero();
        } finally {
            client.close();
        }
    }
}
