package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.dropwizard.DropwizardExports;
import io.prometheus.client.exporter.HTTPServer;
import java.io.IOException;

/**
 * Serves a Dropwizard registry in Prometheus text format on 127.0.0.1 only (any path, e.g.
 * {@code /metrics}). Dropwizard names become Prometheus names with every character other than
 * letters, digits and '_' replaced by '_': {@code kvtier.adapter.a-0.hits} is {@code kvtier_adapter_a_0_hits}.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    public static final String HOST = "127.0.0.1";
    private final HTTPServer server;

    private PrometheusEndpoint(HTTPServer server) {
        this.server = server;
    }

    /** @param port 0 for any free port; {@link #port()} tells which */
    public static PrometheusEndpoint start(MetricRegistry metrics, int port) {
        CollectorRegistry registry = new CollectorRegistry();
        registry.register(new DropwizardExports(metrics));
        try {
            return new PrometheusEndpoint(new HTTPServer.Builder().withHostname(HOST).withPort(port)
                    .withRegistry(registry).withDaemonThreads(true).build());
        } catch (IOException e) {
            throw new IllegalArgumentException("--metrics-port " + port + ": cannot listen on " + HOST + ":" + port
                    + ": " + e.getMessage(), e);
        }
    }

    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        server.close();
    }
}
