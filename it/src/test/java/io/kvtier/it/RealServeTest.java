package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster tried with the CLI alone, on a master of its own (so that no other test's segment is
 * in it): a storage node from {@code kvtier serve -c conf/mooncake-node.conf}, and a put and a get
 * in two more processes from conf/mooncake-client.conf, which contributes no segment. The node's
 * /metrics gives its segment's size, and the master's admin port how much of it the put used, as
 * docs/metrics.md says.
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealServeTest {
    /** conf/mooncake-node.conf's global_segment_size. */
    private static final long NODE_SEGMENT = 536_870_912;
    private static final Pattern USED = Pattern.compile("\"allocator_used_bytes\":(\\d+)");

    @Test
    void aPutAndAGetInTwoProcessesMeetInTheServingNodesSegment(@TempDir Path dir) throws Exception {
        byte[] bytes = new byte[300_000];
        new Random(11).nextBytes(bytes);
        Path in = Files.write(dir.resolve("in.bin"), bytes);
        Path out = dir.resolve("out.bin");
        List<String> key = List.of("--model", "kvtier-it", "--kv-rank", "3", "--hash", String.format("%016x", System.nanoTime()));
        try (MooncakeMaster master = MooncakeMaster.startOwn(dir)) {
            HostProcess host = HostProcess.installWithMooncakePlugin(dir.resolve("host"))
                    .withEnv("MOONCAKE_MASTER", master.address());

            HostProcess.Result nowhere = host.kvtier(args(List.of("put", "-c", "conf/mooncake-client.conf", "--in",
                    in.toString()), key));
            assertThat(nowhere.exit()).as("no client contributes a segment yet: " + nowhere.out()).isEqualTo(1);
            assertThat(nowhere.err()).contains("NO_AVAILABLE_HANDLE (-200): no segment has room for it; "
                    + "is any client contributing global_segment_size?").hasLineCount(1);

            long start = System.nanoTime();
            try (ServingHost node = ServingHost.start(host, "-c", "conf/mooncake-node.conf")) {
                assertThat(node.firstLine()).isEqualTo("serving mooncake-node");
                URI http = node.http();
                long ready = System.nanoTime();
                HostProcess.Result put = host.kvtier(args(List.of("put", "-c", "conf/mooncake-client.conf", "--in",
                        in.toString()), key));
                assertThat(put.exit()).as(put.err()).isZero();
                assertThat(put.out()).contains("(300000 bytes) in mooncake-client");
                HostProcess.Result get = host.kvtier(args(List.of("get", "-c", "conf/mooncake-client.conf", "--size",
                        String.valueOf(bytes.length), "--out", out.toString()), key));
                assertThat(get.exit()).as(get.err()).isZero();
                assertThat(Files.readAllBytes(out)).isEqualTo(bytes);

                // The node says how big its segment is; how much of it is used, only the master's admin port says.
                assertThat(get(http.resolve("/metrics")))
                        .contains("kvtier_adapter_mooncake_node_segment_size_bytes " + (double) NODE_SEGMENT + "\n");
                String segments = get(URI.create(master.adminUrl() + "/get_segments_detail"));
                assertThat(segments).contains("\"total_segments\":1,", "\"size_bytes\":" + NODE_SEGMENT + ",",
                        "\"allocator_capacity_bytes\":" + NODE_SEGMENT + ",");
                Matcher used = USED.matcher(segments);
                assertThat(used.find()).as(segments).isTrue();
                assertThat(Long.parseLong(used.group(1))).as(segments).isGreaterThanOrEqualTo(bytes.length);

                long stopping = System.nanoTime();
                ServingHost.Stopped stopped = node.stop("TERM");
                assertThat(stopped.exit()).as(stopped.err()).isZero();
                assertThat(stopped.rest()).isEmpty();
                System.out.printf("[serve] node serving %d ms after start; put and get in two processes %d ms; "
                        + "stopped %d ms after SIGTERM%n", (ready - start) / 1_000_000, (stopping - ready) / 1_000_000,
                        (System.nanoTime() - stopping) / 1_000_000);
            }
        }
    }

    @Test
    void aMasterThatIsDownNamesTheInstanceAndItsLine(@TempDir Path dir) throws Exception {
        String address = "127.0.0.1:" + MooncakeMaster.freePort(); // free, so nothing listens on it
        HostProcess host = HostProcess.installWithMooncakePlugin(dir).withEnv("MOONCAKE_MASTER", address);
        HostProcess.Result r = host.kvtier("run", "-c", "conf/mooncake-local.conf", "--chunks", "1");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("kvtier: conf/mooncake-local.conf:9 ('mooncake_store'): instance 'mooncake-local' "
                + "could not be created: mooncake_store: cannot reach master_server_addr " + address
                + " within 5000 ms (Connection refused); is mooncake_master running?\n");
    }

    private static String get(URI uri) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(uri + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    private static String[] args(List<String> command, List<String> key) {
        return java.util.stream.Stream.concat(command.stream(), key.stream()).toArray(String[]::new);
    }
}
