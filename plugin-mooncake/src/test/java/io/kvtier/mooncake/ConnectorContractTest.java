package io.kvtier.mooncake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import jnr.ffi.byref.LongLongByReference;
import org.junit.jupiter.api.Test;

/** The connector's own calls through the test double: errors apart from values, bad arguments. */
class ConnectorContractTest {
    private final MooncakeNative lib = TestDouble.binding();

    private MooncakeClient client(String maxMrSize) {
        return MooncakeClient.open(lib, Map.of("local_hostname", "127.0.0.1", "metadata_server", "P2PHANDSHAKE",
                "master_server_addr", "contract-" + UUID.randomUUID() + ":1", "testdouble_max_mr_size", maxMrSize),
                Duration.ofSeconds(5), 1);
    }

    @Test
    void maxMrSizeReportsAnErrorApartFromItsValue() {
        LongLongByReference out = new LongLongByReference(42);
        assertThat(lib.kvt_max_mr_size(null, out)).isEqualTo(-22);
        assertThat(lib.kvt_last_error()).isEqualTo("kvtier_mooncake: client is null");
        assertThat(out.longValue()).as("left alone").isEqualTo(42);
        try (MooncakeClient unlimited = client("0")) {
            assertThat(unlimited.maxMrSize()).as("0 is no limit, not an error").isZero();
        }
        try (MooncakeClient limited = client("1048576")) {
            assertThat(limited.maxMrSize()).isEqualTo(1 << 20);
        }
    }

    @Test
    void aFreshClientKnowsNoNodesAndRefusesCallsOnAnIdItNeverGave() {
        try (MooncakeClient client = client("0")) {
            assertThat(client.nodeReads().running()).isEmpty();
            assertThatThrownBy(() -> client.probeNode(0, "k"))
                    .hasMessage("mooncake_store: cannot probe node 0: kvtier_mooncake: probe_node: no node 0");
            assertThatThrownBy(() -> client.avoidNode(0, true))
                    .hasMessage("mooncake_store: cannot avoid node 0: kvtier_mooncake: avoid_node: no node 0");
            assertThatThrownBy(() -> client.nodeName(0))
                    .hasMessage("mooncake_store: cannot name node 0: kvtier_mooncake: node_name: no node 0");
        }
    }

    @Test
    void nodeCallsOnADestroyedClientDoNothing() {
        MooncakeClient client = client("0");
        client.close();
        assertThat(client.nodeReads().running()).isEmpty();
        assertThat(client.probeNode(0, "k")).isEqualTo(MooncakeClient.ProbeAnswer.UNANSWERED);
    }
}
