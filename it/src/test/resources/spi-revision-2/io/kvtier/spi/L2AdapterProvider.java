package io.kvtier.spi;

import java.util.Map;

/**
 * One adapter type, found with {@link java.util.ServiceLoader}. Register an implementation with
 * {@code @AutoService(L2AdapterProvider.class)}, and document every option in the type's
 * {@code reference.conf} at {@code kvtier/adapters/<type>/reference.conf} in the same jar: its
 * {@code options} are the defaults of {@link AdapterSettings}, and hosts print it as the type's help.
 * Methods added to this interface later will have defaults, so a provider compiled against this
 * version keeps compiling and loading.
 *
 * @param <C> the type's parsed, immutable configuration
 */
public interface L2AdapterProvider<C> {
    /** The type name used in declarations, e.g. {@code mooncake_store}. */
    String type();

    /**
     * The contract revision this provider was compiled against. Implement it as
     * {@code return SpiVersion.CURRENT;}: the constant is copied into the provider's class when it
     * is compiled, so the host can refuse a provider built for a newer contract than its own.
     */
    int spiVersion();

    /**
     * Parses one declaration.
     *
     * @throws ConfigurationException from {@link AdapterSettings#error}, naming the key and the value
     */
    C parseConfig(AdapterSettings settings);

    /** The parsed view that {@code kvtier validate} prints, as JSON-like values. */
    Map<String, Object> describe(C config);

    /**
     * Creates one instance.
     *
     * @throws ConfigurationException when the configuration cannot work in this context
     * @throws IllegalStateException  when the type's runtime (e.g. a native library) is missing
     */
    L2Adapter create(C config, AdapterContext context);
}
