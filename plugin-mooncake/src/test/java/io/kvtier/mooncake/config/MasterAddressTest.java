package io.kvtier.mooncake.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.mooncake.config.MasterAddress.Backend;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The forms of master_server_addr that Mooncake's client accepts at the pinned commit, and the servers each names. */
class MasterAddressTest {
    private static String servers(MasterAddress address) {
        return String.join(" ", address.servers().stream().map(MasterAddressTest::where).toList());
    }

    private static String where(InetSocketAddress server) {
        return server.getHostString() + ":" + server.getPort();
    }

    @Test
    void oneMasterAsHostAndPort() {
        assertThat(MasterAddress.parse("10.0.0.1:50051")).satisfies(a -> {
            assertThat(a.direct()).isTrue();
            assertThat(servers(a)).isEqualTo("10.0.0.1:50051");
        });
        assertThat(servers(MasterAddress.parse("[fd00::1]:50051"))).isEqualTo("[fd00::1]:50051");
        assertThat(servers(MasterAddress.parse("master-0.mooncake:1"))).isEqualTo("master-0.mooncake:1");
    }

    @Test
    void etcdTakesSeveralEndpointsSeparatedAsMooncakesGoWrapperSplitsThem() {
        MasterAddress etcd = MasterAddress.parse("etcd://10.0.0.1:2379; 10.0.0.2:2379,[fd00::3]:2379;");
        assertThat(etcd.backend()).isEqualTo(Backend.ETCD);
        assertThat(servers(etcd)).isEqualTo("10.0.0.1:2379 10.0.0.2:2379 [fd00::3]:2379");
        assertThat(servers(MasterAddress.parse("etcd://http://e1:2379;https://e2:2379"))).isEqualTo("e1:2379 e2:2379");
    }

    @Test
    void redisTakesOneServerWhosePortDefaultsTo6379() {
        MasterAddress redis = MasterAddress.parse("redis://10.0.0.1:6380");
        assertThat(redis.backend()).isEqualTo(Backend.REDIS);
        assertThat(servers(redis)).isEqualTo("10.0.0.1:6380");
        assertThat(servers(MasterAddress.parse("redis://redis.mooncake"))).isEqualTo("redis.mooncake:6379");
        assertThat(servers(MasterAddress.parse("redis://[::1]/"))).isEqualTo("[::1]:6379");
        assertThat(servers(MasterAddress.parse("redis://[::1]:7000"))).isEqualTo("[::1]:7000");
    }

    @Test
    void k8sNamesALeaseAndNoServer() {
        for (String lease : List.of("k8s://default/mooncake-master", "k8s://mooncake-master")) {
            MasterAddress k8s = MasterAddress.parse(lease);
            assertThat(k8s.backend()).isEqualTo(Backend.K8S);
            assertThat(k8s.servers()).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "localhost:", ":50051", "m:0", "m:65536", "m:port", "m :1", "", "m:1:2",
            "[::1:50051", "m1,m2:50051", "user@m:1", "m/x:1"})
    void aMalformedMasterNamesEveryForm(String value) {
        assertThatThrownBy(() -> MasterAddress.parse(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("must be " + MasterAddress.FORMS);
        assertThat(MasterAddress.FORMS).contains("etcd://", "redis://", "k8s://");
    }

    @ParameterizedTest
    @ValueSource(strings = {"etcd://", "etcd://;, ;"})
    void etcdWithoutEndpointsIsRefused(String value) {
        assertThatThrownBy(() -> MasterAddress.parse(value))
                .hasMessageStartingWith("etcd://... must list the etcd endpoints as host:port, separated by ';' or ','")
                .hasMessageEndingWith("; it lists none");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "etcd://10.0.0.1:2379;10.0.0.2           | 10.0.0.2",
        "etcd://10.0.0.1:2379;10.0.0.2:0         | 10.0.0.2:0",
        "etcd://unix://x:1                       | unix://x:1",
        "etcd://10.0.0.1:2379 10.0.0.2:2379      | 10.0.0.1:2379 10.0.0.2:2379"})
    void anEtcdEndpointThatIsNotHostAndPortIsNamed(String value, String bad) {
        assertThatThrownBy(() -> MasterAddress.parse(value))
                .hasMessageEndingWith("; \"" + bad + "\" is not one");
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis://", "redis://10.0.0.1:6379,10.0.0.2:6379", "redis://10.0.0.1:6379;10.0.0.2:6379",
            "redis://10.0.0.1:6379/0", "redis://user:pw@10.0.0.1:6379", "redis://10.0.0.1:6379abc", "redis://::1"})
    void redisTakesExactlyOneServer(String value) {
        assertThatThrownBy(() -> MasterAddress.parse(value))
                .hasMessageStartingWith("redis://... must name one Redis server as host:port (the port defaults to 6379)")
                .hasMessageContaining("MC_REDIS_PASSWORD and MC_REDIS_DB_INDEX");
    }

    @ParameterizedTest
    @ValueSource(strings = {"k8s://", "k8s://a/b/c", "k8s:///b", "k8s://a/", "k8s://a b"})
    void k8sTakesNamespaceSlashNameOrName(String value) {
        assertThatThrownBy(() -> MasterAddress.parse(value))
                .hasMessageStartingWith("k8s://... must name the master's Lease as namespace/name or name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://10.0.0.1:50051", "ETCD://10.0.0.1:2379", "://x", "zookeeper://z:2181"})
    void aSchemeMooncakeDoesNotKnowIsRefused(String value) {
        String scheme = value.substring(0, value.indexOf("://"));
        assertThatThrownBy(() -> MasterAddress.parse(value))
                .hasMessage("names the HA backend \"" + scheme + "\", which Mooncake's client does not know "
                        + "(etcd, redis, k8s); it must be " + MasterAddress.FORMS);
    }
}
