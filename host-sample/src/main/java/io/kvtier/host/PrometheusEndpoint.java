package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.dropwizard.DropwizardExports;
import io.prometheus.client.exporter.HTTPServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * Serves a Dropwizard registry in Prometheus text format on every path but those of the extra
 * handlers (e.g. {@code /metrics}). Dropwizard names become Prometheus names with every character
 * other than letters, digits and '_' replaced by '_': {@code kvtier.adapter.a-0.hits} is
 * {@code kvtier_adapter_a_0_hits}.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    public static final String HOST = "127.0.0.1";
    private final HTTPServer server;
    private final InetSocketAddress address;

    private PrometheusEndpoint(HTTPServer server, InetSocketAddress address) {
        this.server = server;
        this.address = address;
    }

    /** On {@value #HOST}:{@code port}; 0 for any free port, which {@link #port()} tells. */
    public static PrometheusEndpoint start(MetricRegistry metrics, int port) {
        return start(metrics, new InetSocketAddress(HOST, port), "--metrics-port " + port, Map.of());
    }

    /**
     * @param option   the option and value that asked for {@code address}, to name in the error when it cannot be bound
     * @param handlers more handlers by path, e.g. {@code /health/ready}
     */
    public static PrometheusEndpoint start(MetricRegistry metrics, InetSocketAddress address, String option,
                                           Map<String, HttpHandler> handlers) {
        CollectorRegistry registry = new CollectorRegistry();
        registry.register(new DropwizardExports(metrics));
        HttpServer bound;
        try {
            bound = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + ": cannot listen on " + show(address) + ": " + e.getMessage(), e);
        }
        handlers.forEach(bound::createContext);
        try {
            // The host as asked, the port as bound: a dual-stack socket reports 0.0.0.0 as [::].
            return new PrometheusEndpoint(new HTTPServer.Builder().withHttpServer(bound).withRegistry(registry)
                    .withDaemonThreads(true).build(), new InetSocketAddress(address.getAddress(), bound.getAddress().getPort()));
        } catch (IOException e) {
            bound.stop(0);
            throw new IllegalStateException("cannot serve on " + show(address) + ": " + e.getMessage(), e);
        }
    }

    public int port() {
        return address.getPort();
    }

    /** Where it listens, as HOST:PORT (an IPv6 host in brackets). */
    public String address() {
        return show(address);
    }

    private static String show(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    @Override
    public void close() {
        server.close();
    }
}
