package io.kvtier.spi;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An adapter's health (since SPI revision 3).
 *
 * @param healthy        whether batches are sent to the store
 * @param reason         why it is in this state: required when unhealthy, may be "" when healthy
 * @param since          when this state began, when the adapter knows
 * @param unhealthyParts the parts that are not well, by name (e.g. {@code master},
 *                       {@code node 198.18.0.3:15000}), each with its reason; an adapter may be
 *                       healthy while some of its parts are not
 */
public record Health(boolean healthy, String reason, Optional<Instant> since, Map<String, String> unhealthyParts) {
    public Health {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(since, "since");
        unhealthyParts = Map.copyOf(unhealthyParts);
        if (!healthy && reason.isEmpty()) {
            throw new IllegalArgumentException("an unhealthy adapter says why");
        }
    }

    public static Health healthy(Instant since) {
        return new Health(true, "", Optional.of(since), Map.of());
    }

    public static Health unhealthy(String reason, Instant since) {
        return new Health(false, reason, Optional.of(since), Map.of());
    }

    public Health withUnhealthyParts(Map<String, String> parts) {
        return new Health(healthy, reason, since, parts);
    }
}
