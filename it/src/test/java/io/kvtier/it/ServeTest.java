package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kvtier serve} through bin/kvtier: ready in one line, its HTTP address in the next, stopped
 * by a signal with exit 0.
 */
class ServeTest {
    @ParameterizedTest
    @ValueSource(strings = {"TERM", "INT"})
    void servesUntilSignalledThenClosesAndExitsZero(String signal, @TempDir Path dir) throws Exception {
        HostProcess host = HostProcess.install(dir);
        try (ServingHost serving = ServingHost.start(host, "--l2-adapter", "{\"name\":\"a\",\"type\":\"memory\"}",
                "--l2-adapter", "{\"name\":\"b\",\"type\":\"memory\",\"capacity\":\"64 MiB\"}")) {
            assertThat(serving.firstLine()).isEqualTo("serving a, b");
            assertThat(serving.http().getHost()).isEqualTo("127.0.0.1");
            ServingHost.Stopped stopped = serving.stop(signal);
            assertThat(stopped.exit()).as(stopped.err()).isZero();
            assertThat(stopped.rest()).isEmpty();
            assertThat(stopped.err()).isEmpty();
        }
    }

    @Test
    void theDefaultServesMetricsAndHealthOverHttpUntilSigtermThenClosesThePort(@TempDir Path dir) throws Exception {
        HostProcess host = HostProcess.install(dir);
        try (ServingHost serving = ServingHost.start(host)) {
            assertThat(serving.firstLine()).isEqualTo("serving memory");
            URI http = serving.http();
            HttpResponse<String> metrics = get(http.resolve("/metrics"));
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body()).contains("kvtier_serve_memory_healthy 1.0");
            HttpResponse<String> ready = get(http.resolve("/health/ready"));
            assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
            assertThat(ready.body()).contains("{\"healthy\":true,\"name\":\"memory\",").endsWith(",\"ready\":true}\n");
            assertThat(get(http.resolve("/health/live")).statusCode()).isEqualTo(200);

            ServingHost.Stopped stopped = serving.stop("TERM");
            assertThat(stopped.exit()).as(stopped.err()).isZero();
            assertThat(stopped.rest()).isEmpty();
            assertThat(stopped.err()).isEmpty();
            assertThatThrownBy(() -> get(http.resolve("/health/live"))).isInstanceOf(ConnectException.class);
        }
    }

    private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(120)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theStorageNodeConfServesOnTheTestDouble(@TempDir Path dir) throws Exception {
        try (StandInMaster master = new StandInMaster()) {
            HostProcess host = HostProcess.install(dir, HostProcess.PLUGIN_JAR)
                    .withEnv("KVTIER_MOONCAKE_LIBRARY", DropInTest.TEST_DOUBLE.toString())
                    .withEnv("MOONCAKE_MASTER", master.address());
            try (ServingHost serving = ServingHost.start(host, "-c", "conf/mooncake-node.conf")) {
                assertThat(serving.firstLine()).isEqualTo("serving mooncake-node");
                HttpResponse<String> ready = get(serving.http().resolve("/health/ready"));
                assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
                assertThat(ready.body()).contains("\"name\":\"mooncake-node\"", "\"type\":\"mooncake_store\"");
                ServingHost.Stopped stopped = serving.stop("TERM");
                assertThat(stopped.exit()).as(stopped.err()).isZero();
            }
            HostProcess.Result client = host.kvtier("validate", "-c", "conf/mooncake-client.conf");
            assertThat(client.exit()).as(client.err()).isZero();
            assertThat(client.out()).contains("\"global_segment_size\":\"0\"", "\"master_server_addr\":\"" + master.address() + "\"");
        }
    }

    @Test
    void aDeclarationThatCannotStartEndsServeAtOnceNamingItsFileAndLine(@TempDir Path dir) throws Exception {
        int port = MooncakeMaster.freePort(); // free, so nothing listens on it
        HostProcess host = HostProcess.install(dir, HostProcess.PLUGIN_JAR)
                .withEnv("KVTIER_MOONCAKE_LIBRARY", DropInTest.TEST_DOUBLE.toString())
                .withEnv("MOONCAKE_MASTER", "127.0.0.1:" + port);
        HostProcess.Result r = host.kvtier("serve", "-c", "conf/mooncake-node.conf");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("kvtier: conf/mooncake-node.conf:10 ('mooncake_store'): instance 'mooncake-node' "
                + "could not be created: mooncake_store: cannot reach master_server_addr 127.0.0.1:" + port
                + " within 5000 ms (Connection refused); is mooncake_master running?\n");
    }
}
