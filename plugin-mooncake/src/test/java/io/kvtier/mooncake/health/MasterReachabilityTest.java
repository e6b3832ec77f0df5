package io.kvtier.mooncake.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MasterReachabilityTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aMasterThatAcceptsPasses() throws Exception {
        try (ServerSocket master = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatCode(() -> MasterReachability.check(
                    Map.of("master_server_addr", "127.0.0.1:" + master.getLocalPort()), TIMEOUT)).doesNotThrowAnyException();
        }
    }

    @Test
    void aMasterThatIsDownFailsAtOnceNamingTheKeyAndAddress() throws Exception {
        int port = closedPort();
        long start = System.nanoTime();
        assertThatThrownBy(() -> MasterReachability.check(Map.of("master_server_addr", "127.0.0.1:" + port), TIMEOUT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("mooncake_store: cannot reach master_server_addr 127.0.0.1:" + port + " within 2000 ms (")
                .hasMessageEndingWith("is mooncake_master running?");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT);
    }

    @Test
    void anHttpMetadataServerThatIsDownFailsToo() throws Exception {
        try (ServerSocket master = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = closedPort();
            assertThatThrownBy(() -> MasterReachability.check(Map.of(
                    "master_server_addr", "127.0.0.1:" + master.getLocalPort(),
                    "metadata_server", "http://127.0.0.1:" + port + "/metadata"), TIMEOUT))
                    .hasMessageContaining("cannot reach metadata_server 127.0.0.1:" + port)
                    .hasMessageEndingWith("is the metadata server running?");
        }
    }

    @Test
    void withRedisItIsTheRedisServerThatMustAccept() throws Exception {
        try (ServerSocket redis = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatCode(() -> MasterReachability.check(
                    Map.of("master_server_addr", "redis://127.0.0.1:" + redis.getLocalPort()), TIMEOUT)).doesNotThrowAnyException();
        }
        int port = closedPort();
        assertThatThrownBy(() -> MasterReachability.check(Map.of("master_server_addr", "redis://127.0.0.1:" + port), TIMEOUT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("mooncake_store: cannot reach master_server_addr's Redis 127.0.0.1:" + port + " within 2000 ms (")
                .hasMessageEndingWith("is the Redis server that elects the masters running?");
    }

    @Test
    void withEtcdOneEndpointThatAcceptsIsEnough() throws Exception {
        int down = closedPort();
        try (ServerSocket etcd = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatCode(() -> MasterReachability.check(Map.of("master_server_addr",
                    "etcd://127.0.0.1:" + down + ";127.0.0.1:" + etcd.getLocalPort()), TIMEOUT)).doesNotThrowAnyException();
        }
    }

    @Test
    void withEtcdNoEndpointThatAcceptsFailsNamingEach() throws Exception {
        int first = closedPort();
        int second = closedPort();
        assertThatThrownBy(() -> MasterReachability.check(Map.of("master_server_addr",
                "etcd://127.0.0.1:" + first + ",http://127.0.0.1:" + second), TIMEOUT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("mooncake_store: cannot reach any etcd endpoint of master_server_addr within 2000 ms each: "
                        + "127.0.0.1:" + first + " (")
                .hasMessageContaining("), 127.0.0.1:" + second + " (")
                .hasMessageEndingWith("); is etcd running?");
    }

    @Test
    void aKubernetesLeaseNamesNoServerToCheck() {
        assertThatCode(() -> MasterReachability.check(Map.of("master_server_addr", "k8s://default/mooncake-master",
                "metadata_server", "P2PHANDSHAKE"), TIMEOUT)).doesNotThrowAnyException();
    }
}
