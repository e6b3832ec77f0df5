package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sun.misc.Signal;

/**
 * {@code kvtier serve} in this JVM: its HTTP endpoint while it serves, and the endpoint gone once
 * SIGTERM (raised in this JVM, where serve handles it) has stopped it.
 */
class ServeCommandTest {
    private static final long TIMEOUT_SECONDS = 120;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void servesMetricsAndHealthUntilSignalledThenClosesThePort() throws Exception {
        Serving serve = Serving.start("serve");
        assertThat(serve.line()).isEqualTo("serving memory");
        String http = serve.line();
        assertThat(http).matches("http 127\\.0\\.0\\.1:[0-9]+");
        URI base = URI.create("http://" + http.substring("http ".length()));

        HttpResponse<String> metrics = get(base.resolve("/metrics"));
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("kvtier_serve_memory_healthy 1.0");
        HttpResponse<String> ready = get(base.resolve("/health/ready"));
        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        assertThat(ready.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        assertThat(ready.body()).startsWith("{\"instances\":[{\"healthy\":true,\"name\":\"memory\",\"reason\":\"\",\"since\":\"")
                .endsWith("\",\"type\":\"memory\",\"unhealthy_parts\":{}}],\"ready\":true}\n");
        HttpResponse<String> live = get(base.resolve("/health/live"));
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).isEqualTo("{\"live\":true}\n");

        assertThat(serve.stop()).isEqualTo(new Stopped(Main.OK, "", ""));
        assertThatThrownBy(() -> get(base.resolve("/health/live"))).isInstanceOf(ConnectException.class);
    }

    @Test
    void servesExactlyItsPathsWithGetAndHeadAndCleanHelpTexts() throws Exception {
        Serving serve = Serving.start("serve");
        assertThat(serve.line()).isEqualTo("serving memory");
        URI base = URI.create("http://" + serve.line().substring("http ".length()));

        for (String path : new String[] {"/", "/nonexistent", "/health/readyX", "/metricsXYZ", "/health", "/-/healthy"}) {
            assertThat(get(base.resolve(path)).statusCode()).as("GET %s", path).isEqualTo(404);
        }
        for (String path : new String[] {"/metrics", "/health/live", "/health/ready"}) {
            HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(base.resolve(path))
                    .POST(HttpRequest.BodyPublishers.ofString("x")).timeout(Duration.ofSeconds(TIMEOUT_SECONDS)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).as("POST %s", path).isEqualTo(405);
            assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
            HttpResponse<Void> head = HTTP.send(HttpRequest.newBuilder(base.resolve(path))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(TIMEOUT_SECONDS)).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertThat(head.statusCode()).as("HEAD %s", path).isEqualTo(200);
        }
        String metrics = get(base.resolve("/metrics")).body();
        assertThat(metrics).contains("# HELP kvtier_serve_memory_healthy Dropwizard metric kvtier.serve.memory.healthy\n")
                .doesNotContain("Lambda").doesNotContain("type=");

        assertThat(serve.stop()).isEqualTo(new Stopped(Main.OK, "", ""));
    }

    @Test
    void readinessIs503AndNamesTheInstanceWhileOneIsUnhealthy(@TempDir Path dir) throws Exception {
        Path plugins = PluginDirs.of(dir, UnhealthyAdapterDouble.Provider.class);
        Serving serve = Serving.start(plugins, "serve", "--l2-adapter", "{\"name\":\"well\",\"type\":\"memory\"}",
                "--l2-adapter", "{\"name\":\"sick\",\"type\":\"unhealthy\"}");
        assertThat(serve.line()).isEqualTo("serving well, sick");
        URI base = URI.create("http://" + serve.line().substring("http ".length()));

        HttpResponse<String> ready = get(base.resolve("/health/ready"));
        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(503);
        assertThat(ready.body()).contains("{\"healthy\":true,\"name\":\"well\",")
                .contains("{\"healthy\":false,\"name\":\"sick\",\"reason\":\"" + UnhealthyAdapterDouble.REASON
                        + "\",\"since\":\"" + UnhealthyAdapterDouble.SINCE + "\",\"type\":\"unhealthy\","
                        + "\"unhealthy_parts\":{\"master\":\"" + UnhealthyAdapterDouble.REASON + "\"}}")
                .endsWith("],\"ready\":false}\n");
        assertThat(get(base.resolve("/health/live")).statusCode()).isEqualTo(200);
        assertThat(get(base.resolve("/metrics")).body()).contains("kvtier_serve_well_healthy 1.0", "kvtier_serve_sick_healthy 0.0");

        assertThat(serve.stop()).isEqualTo(new Stopped(Main.OK, "", ""));
    }

    @Test
    void offServesNoHttpAndPrintsTheServingLineAlone() throws Exception {
        Serving serve = Serving.start("serve", "--http", "off");
        assertThat(serve.line()).isEqualTo("serving memory");
        assertThat(serve.stop()).isEqualTo(new Stopped(Main.OK, "", ""));
    }

    @Test
    void theWildcardAddressIsPrintedAsGivenWithThePortBound() throws Exception {
        Serving serve = Serving.start("serve", "--http", "0.0.0.0:0");
        assertThat(serve.line()).isEqualTo("serving memory");
        assertThat(serve.line()).matches("http 0\\.0\\.0\\.0:[1-9][0-9]*");
        assertThat(serve.stop()).isEqualTo(new Stopped(Main.OK, "", ""));
    }

    @Test
    void anAddressInUseIsAUsageErrorInOneLine() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + taken.getLocalPort();
            HostCli.Result r = HostCli.kvtier("serve", "--http", address);
            assertThat(r.exit()).isEqualTo(Main.USAGE);
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).isEqualTo("kvtier: --http " + address + ": cannot listen on " + address
                    + ": Address already in use\n");
        }
    }

    private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(TIMEOUT_SECONDS)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    record Stopped(int exit, String restOfOut, String err) {}

    /** A serve command running on a thread of its own; its stdout is read line by line as it is written. */
    private static final class Serving {
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final StringBuilder partial = new StringBuilder();
        private final StringWriter err = new StringWriter();
        private final CompletableFuture<Integer> exit;

        private Serving(Path plugins, String... args) {
            Writer out = new Writer() {
                @Override
                public synchronized void write(char[] chars, int offset, int length) {
                    for (int i = offset; i < offset + length; i++) {
                        if (chars[i] == '\n') {
                            lines.add(partial.toString());
                            partial.setLength(0);
                        } else {
                            partial.append(chars[i]);
                        }
                    }
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            };
            Supplier<Integer> serve = () -> Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
            // A thread of its own: serve holds it until stopped.
            exit = CompletableFuture.supplyAsync(plugins == null ? serve : () -> PluginDirs.withPluginsDir(plugins, serve),
                    task -> new Thread(task, "kvtier-serve-under-test").start());
        }

        static Serving start(String... args) {
            return new Serving(null, args);
        }

        static Serving start(Path plugins, String... args) {
            return new Serving(plugins, args);
        }

        String line() throws InterruptedException {
            String line = lines.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(line).as("a line on stdout within %d s; stderr: %s", TIMEOUT_SECONDS, err).isNotNull();
            return line;
        }

        /** Raises SIGTERM, which serve handles once it has printed its first line, and awaits the exit. */
        Stopped stop() throws Exception {
            Signal.raise(new Signal("TERM"));
            int code = exit.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return new Stopped(code, String.join("\n", lines), err.toString());
        }
    }
}
