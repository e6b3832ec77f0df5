package io.kvtier.host;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.kvtier.hostlib.Instances;
import io.kvtier.spi.Health;
import io.kvtier.toolkit.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Health over HTTP, for an orchestrator's probes. {@value #LIVE}: 200 while the process serves.
 * {@value #READY}: 200 when every instance is healthy, 503 otherwise, with each instance's
 * {@link Health} as JSON: {@code {"instances":[{"healthy":true,"name":"a","reason":"",
 * "since":"2026-01-01T00:00:00Z","type":"memory","unhealthy_parts":{}}],"ready":true}}.
 */
final class HealthEndpoint {
    static final String LIVE = "/health/live";
    static final String READY = "/health/ready";
    private static final int OK = 200;
    private static final int UNAVAILABLE = 503;

    private HealthEndpoint() {}

    static Map<String, HttpHandler> handlers(Supplier<List<Instances.Instance>> instances) {
        return Map.of(LIVE, exchange -> respond(exchange, OK, Map.of("live", true)),
                READY, exchange -> ready(exchange, instances.get()));
    }

    private static void ready(HttpExchange exchange, List<Instances.Instance> instances) throws IOException {
        List<Map<String, Object>> each = instances.stream().map(HealthEndpoint::health).toList();
        boolean ready = each.stream().allMatch(h -> Boolean.TRUE.equals(h.get("healthy")));
        respond(exchange, ready ? OK : UNAVAILABLE, Map.of("ready", ready, "instances", each));
    }

    /** The instance's health; unhealthy, saying why, when health() throws. */
    static Health read(Instances.Instance instance) {
        try {
            return instance.adapter().health();
        } catch (RuntimeException e) {
            // A plugin's bug: the probe and the scrape still answer, and say what.
            return new Health(false, "health() failed: " + e, Optional.empty(), Map.of());
        }
    }

    private static Map<String, Object> health(Instances.Instance instance) {
        Health health = read(instance);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", instance.name());
        json.put("type", instance.declared().type());
        json.put("healthy", health.healthy());
        json.put("reason", health.reason());
        json.put("since", health.since().map(Object::toString).orElse(null));
        json.put("unhealthy_parts", health.unhealthyParts());
        return json;
    }

    private static void respond(HttpExchange exchange, int status, Object body) throws IOException {
        try {
            byte[] bytes = (Json.render(body) + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
            if (!head) {
                exchange.getResponseBody().write(bytes);
            }
        } finally {
            exchange.close();
        }
    }
}
