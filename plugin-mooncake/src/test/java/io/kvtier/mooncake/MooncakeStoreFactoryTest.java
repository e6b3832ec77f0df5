package io.kvtier.mooncake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.ConfigurationException;
import io.kvtier.spi.L1MemoryDesc;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * LMCache's factory tests 19–23: what the factory hands to the native layer, observed through the
 * real binding and the test double instead of a fake extension.
 */
class MooncakeStoreFactoryTest {
    private final MetricRegistry metrics = new MetricRegistry();

    private MooncakeStoreAdapter create(RecordingNative[] recorder, Map<String, Object> body, Optional<L1MemoryDesc> l1) {
        MooncakeStoreProvider provider = TestDouble.provider(lib -> recorder[0] = new RecordingNative(lib));
        return TestDouble.create(provider, body, TestDouble.context("mc", metrics, l1));
    }

    private long registeredBytesGauge() {
        Gauge<?> gauge = metrics.getGauges().get("kvtier.l2.mc.l1.registered_bytes");
        return ((Number) gauge.getValue()).longValue();
    }

    // 19
    @Test
    void tcpWithADescriptorRegistersNothing() {
        OffHeapRegion l1 = new OffHeapRegion(64 * 1024);
        RecordingNative[] rec = new RecordingNative[1];
        try (MooncakeStoreAdapter adapter = create(rec, TestDouble.body("num_workers", 3), Optional.of(l1.desc(true)))) {
            assertThat(rec[0].registered).isEmpty();
            assertThat(registeredBytesGauge()).isZero();
            assertThat(adapter.status())
                    .containsEntry("preregister_l1_memory", false)
                    .containsEntry("registered_bytes", 0L)
                    .containsEntry("lanes", Map.of("shared", 3, "store", 3));
            assertThat(rec[0].creates).hasValue(1);
        }
    }

    @Test
    void setupConfigReachesMooncake() {
        // The double fails setup on request: proof that forwarded keys arrive in setup_internal.
        MooncakeStoreProvider provider = TestDouble.provider();
        assertThatThrownBy(() -> TestDouble.create(provider, TestDouble.body("testdouble_fail_setup", true), TestDouble.context("mc")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Mooncake setup_internal failed")
                .hasMessageContaining("testdouble_fail_setup");
        Map<String, Object> noHost = TestDouble.body();
        noHost.remove("local_hostname");
        assertThatThrownBy(() -> TestDouble.create(provider, noHost, TestDouble.context("mc")))
                .hasMessageContaining("local_hostname");
    }

    // 20
    @Test
    void rdmaWithADescriptorRegistersTheWholeRegion() {
        OffHeapRegion l1 = new OffHeapRegion(64 * 1024);
        RecordingNative[] rec = new RecordingNative[1];
        try (MooncakeStoreAdapter adapter = create(rec, TestDouble.body("protocol", "rdma"), Optional.of(l1.desc(true)))) {
            assertThat(rec[0].registered).containsExactly(new RecordingNative.Registration(l1.address, 64 * 1024, 0));
            assertThat(registeredBytesGauge()).isEqualTo(64 * 1024);
            assertThat(adapter.status()).containsEntry("preregister_l1_memory", true).containsEntry("registration_blocks", 1);
        }
        assertThat(rec[0].unregistered).containsExactly(l1.address);
    }

    @Test
    void rdmaIsMatchedCaseInsensitively() {
        OffHeapRegion l1 = new OffHeapRegion(4096);
        RecordingNative[] rec = new RecordingNative[1];
        try (MooncakeStoreAdapter adapter = create(rec, TestDouble.body("protocol", "RDMA"), Optional.of(l1.desc(true)))) {
            assertThat(rec[0].registered).hasSize(1);
            assertThat(adapter.status()).containsEntry("protocol", "RDMA").containsEntry("preregister_l1_memory", true);
        }
    }

    // 21
    @Test
    void perOpWorkerCountsBecomeLanes() {
        RecordingNative[] rec = new RecordingNative[1];
        Map<String, Object> body = TestDouble.body("per_op_workers", Map.of("lookup", 4, "retrieve", 16, "store", 2),
                "num_workers", 3);
        try (MooncakeStoreAdapter adapter = create(rec, body, Optional.empty())) {
            assertThat(adapter.status().get("lanes")).as("pools are named by operation").isEqualTo(Map.of("lookup", 4, "load", 16, "store", 2, "shared", 3));
            // The pools really exist under those names: run one batch of each kind.
            adapter.lookupAndLock(java.util.List.of(TestDouble.key(1))).join();
            adapter.delete(java.util.List.of(TestDouble.key(1))).join();
            Set<String> names = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                    .filter(n -> n.startsWith("kvtier-mc-")).collect(Collectors.toSet());
            assertThat(names).contains("kvtier-mc-lookup-1", "kvtier-mc-shared-1");
        }
    }

    @Test
    void everyLaneDedicatedMeansNoSharedPool() {
        RecordingNative[] rec = new RecordingNative[1];
        Map<String, Object> body = TestDouble.body("per_op_workers",
                Map.of("lookup", 1, "retrieve", 1, "store", 1, "delete", 1));
        try (MooncakeStoreAdapter adapter = create(rec, body, Optional.empty())) {
            @SuppressWarnings("unchecked")
            Map<String, Integer> lanes = (Map<String, Integer>) adapter.status().get("lanes");
            assertThat(lanes).containsOnlyKeys("lookup", "load", "store", "delete");
        }
    }

    // 22
    @Test
    void rdmaRequiresADescriptor() {
        RecordingNative[] rec = new RecordingNative[1];
        assertThatThrownBy(() -> create(rec, TestDouble.body("protocol", "rdma"), Optional.empty()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("RDMA protocol is enabled, but no L1 memory descriptor was provided; "
                        + "cannot create Mooncake Store L2 adapter.");
        assertThat(rec[0].creates).as("nothing reaches native code").hasValue(0);
    }

    // 23
    @Test
    void rdmaRejectsAnInvalidDescriptor() {
        for (L1MemoryDesc bad : Arrays.asList(new L1MemoryDesc(0, 65536, 64, true), new L1MemoryDesc(123456, 0, 64, true),
                new L1MemoryDesc(123456, -1, 64, true))) {
            RecordingNative[] rec = new RecordingNative[1];
            assertThatThrownBy(() -> create(rec, TestDouble.body("protocol", "rdma"), Optional.of(bad)))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessage(String.format("RDMA protocol is enabled, but the L1 memory descriptor is invalid "
                            + "(ptr=%d, size=%d); cannot create Mooncake Store L2 adapter.", bad.address(), bad.size()));
            assertThat(rec[0].creates).hasValue(0);
        }
    }

    @Test
    void rdmaRejectsALazilyAllocatedL1() {
        OffHeapRegion l1 = new OffHeapRegion(4096);
        RecordingNative[] rec = new RecordingNative[1];
        assertThatThrownBy(() -> create(rec, TestDouble.body("protocol", "rdma"), Optional.of(l1.desc(false))))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("--no-l1-use-lazy");
        assertThat(rec[0].creates).hasValue(0);
    }

    @Test
    void creationFailureLeavesNothingBehind() {
        // Registration of block 0 fails: the client must be destroyed and no gauge left registered.
        OffHeapRegion l1 = new OffHeapRegion(4096);
        RecordingNative[] rec = new RecordingNative[1];
        assertThatThrownBy(() -> create(rec, TestDouble.body("protocol", "rdma", "testdouble_fail_register_at", 0),
                Optional.of(l1.desc(true))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Mooncake preregister_l1_memory failed");
        assertThat(rec[0].destroys).hasValue(1);
        assertThat(metrics.getGauges()).isEmpty();
        // The same instance name can be created again in the same registry.
        try (MooncakeStoreAdapter adapter = create(rec, TestDouble.body(), Optional.empty())) {
            assertThat(adapter.status()).containsEntry("is_healthy", true);
        }
    }

    @Test
    void aCreationThatFailsAtItsLastStepReleasesWhatItMade() {
        // The gauges come last, after the client, the lanes and the health threads were made.
        metrics.register("kvtier.l2.mc.healthy", (Gauge<Integer>) () -> 7);
        RecordingNative[] rec = new RecordingNative[1];
        assertThatThrownBy(() -> create(rec, TestDouble.body(), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("its metric names are already taken");
        assertThat(rec[0].destroys).hasValue(1);
        assertThat(metrics.getGauges()).containsOnlyKeys("kvtier.l2.mc.healthy");
        metrics.remove("kvtier.l2.mc.healthy");
        try (MooncakeStoreAdapter adapter = create(rec, TestDouble.body(), Optional.empty())) {
            assertThat(adapter.status()).containsEntry("is_healthy", true);
        }
    }

    @Test
    void theHostContextNamesTheThreadsAndMetrics() {
        AdapterContext ctx = TestDouble.context("named", metrics, Optional.empty());
        try (MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.provider(), TestDouble.body(), ctx)) {
            assertThat(adapter.status()).containsEntry("instance", "named");
            assertThat(metrics.getNames()).allMatch(n -> n.startsWith("kvtier.l2.named."));
        }
    }
}
