package io.kvtier.spi;

import java.util.List;
import java.util.Set;

/**
 * One declared instance's options, as its provider reads them. The host keeps where every value
 * was written, so an error raised through {@link #error} names the file and line (or the
 * {@code --l2-adapter} flag and column) of the offending key, not of the declaration.
 *
 * <p>Defaults come from the type's {@code reference.conf}, shipped in its jar at
 * {@code kvtier/adapters/<type>/reference.conf}: every key of its {@code options} section is present
 * here, with the declared value or the default. Write no default in code.
 *
 * <p>Values are JSON-like: {@code String}, {@code Boolean}, {@code Integer}, {@code Long},
 * {@code Double}, {@code List}, {@code Map} (with values of these types), or {@code null}. The
 * host has removed {@code name}; {@code type} is still present.
 */
public interface AdapterSettings {
    /** Every key present, declared or defaulted, including keys whose value is {@code null}. */
    Set<String> keys();

    /** Whether the declaration itself sets {@code key}, rather than leaving it to the default. */
    boolean isDeclared(String key);

    /** The value at a top-level key, or {@code null} when it is absent or {@code null}. */
    Object get(String key);

    /**
     * A byte size: a non-negative integer, or a string such as {@code "64 MiB"} or {@code "1g"}.
     *
     * @throws ConfigurationException at the key's origin, with the host's message for a bad size
     */
    long getBytes(String key);

    /**
     * An error located at the value under {@code keyPath} (e.g. {@code ["eviction", "eviction_ratio"]}):
     * where the declaration sets it, else where reference.conf gives its default, else at the
     * closest enclosing value the declaration sets.
     */
    ConfigurationException error(List<String> keyPath, String problem);

    /** An error located at a top-level key. */
    default ConfigurationException error(String key, String problem) {
        return error(List.of(key), problem);
    }
}
