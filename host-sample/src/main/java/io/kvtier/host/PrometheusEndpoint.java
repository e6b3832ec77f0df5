package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.HTTPServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Serves a Dropwizard registry in Prometheus text format at {@value #METRICS}, and the extra
 * handlers at their paths (e.g. {@code /health/ready}): exactly those paths, GET and HEAD only. Any
 * other path is 404 and any other method 405, so that a probe with a typo in its path fails.
 * Dropwizard names become Prometheus names with every character other than letters, digits and '_'
 * replaced by '_': {@code kvtier.adapter.a-0.hits} is {@code kvtier_adapter_a_0_hits}.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    public static final String HOST = "127.0.0.1";
    public static final String METRICS = "/metrics";
    private static final int NOT_FOUND = 404;
    private static final int METHOD_NOT_ALLOWED = 405;
    private final HttpServer server;
    private final ExecutorService threads;
    private final InetSocketAddress address;

    private PrometheusEndpoint(HttpServer server, ExecutorService threads, InetSocketAddress address) {
        this.server = server;
        this.threads = threads;
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
        registry.register(new DropwizardCollector(metrics));
        Map<String, HttpHandler> paths = new HashMap<>(handlers);
        paths.put(METRICS, new HTTPServer.HTTPMetricHandler(registry));
        HttpServer bound;
        try {
            bound = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + ": cannot listen on " + show(address) + ": " + e.getMessage(), e);
        }
        bound.createContext("/", exchange -> dispatch(exchange, paths));
        ExecutorService threads = Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "kvtier-http");
            thread.setDaemon(true);
            return thread;
        });
        bound.setExecutor(threads);
        bound.start();
        // The host as asked, the port as bound: a dual-stack socket reports 0.0.0.0 as [::].
        return new PrometheusEndpoint(bound, threads, new InetSocketAddress(address.getAddress(), bound.getAddress().getPort()));
    }

    /** A context matches every path it prefixes; only an exact path is served here. */
    private static void dispatch(HttpExchange exchange, Map<String, HttpHandler> paths) throws IOException {
        HttpHandler handler = paths.get(exchange.getRequestURI().getPath());
        String method = exchange.getRequestMethod();
        if (handler != null && (method.equals("GET") || method.equals("HEAD"))) {
            handler.handle(exchange);
            return;
        }
        try (exchange) {
            if (handler != null) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            }
            exchange.sendResponseHeaders(handler == null ? NOT_FOUND : METHOD_NOT_ALLOWED, -1);
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
        server.stop(0);
        threads.shutdownNow();
    }
}
