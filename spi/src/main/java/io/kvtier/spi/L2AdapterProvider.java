package io.kvtier.spi;

import java.util.Map;

/**
 * One adapter type, found with {@link java.util.ServiceLoader}. Register an implementation with
 * {@code @AutoService(L2AdapterProvider.class)}.
 *
 * @param <C> the type's parsed, immutable configuration
 */
public interface L2AdapterProvider<C> {
    /** The type name used in declarations, e.g. {@code mooncake_store}. */
    String type();

    /**
     * Parses one declaration body (JSON-like values: String, Boolean, Integer, Long, Double, List,
     * Map, or null). The host has removed {@code name}; {@code type} is still present.
     *
     * @throws IllegalArgumentException with a message naming the key and the value
     */
    C parseConfig(Map<String, Object> body);

    /** The parsed view that {@code kvtier validate} prints, as JSON-like values. */
    Map<String, Object> describe(C config);

    /**
     * Creates one instance.
     *
     * @throws IllegalArgumentException when the configuration cannot work in this context
     * @throws IllegalStateException    when the type's runtime (e.g. a native library) is missing
     */
    L2Adapter create(C config, AdapterContext context);

    /** Human-readable description of the configuration keys. */
    String help();
}
