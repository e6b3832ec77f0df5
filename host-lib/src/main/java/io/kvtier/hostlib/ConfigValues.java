package io.kvtier.hostlib;

import io.kvtier.spi.ConfigurationException;
import io.kvtier.toolkit.Json;

/** Host-side readers of values given outside declarations, e.g. command-line sizes. */
public final class ConfigValues {
    private ConfigValues() {}

    /** Compact JSON of a JSON-like value. */
    public static String toJson(Object value) {
        return Json.render(value);
    }

    /** {@code bytes} for a message: {@code 8 KiB}, {@code 954 GiB}, {@code 1.86 PiB}. */
    public static String readableBytes(long bytes) {
        return ByteSizes.readable(bytes);
    }

    /**
     * A byte size: a non-negative integer, or a string such as {@code 64 MiB} or {@code 1g}, exactly
     * as written (see {@link ByteSizes}).
     *
     * @throws ConfigurationException at {@code origin} (e.g. {@code --l1-size}), quoting {@code value}
     */
    public static long bytes(String value, String origin) {
        try {
            return ByteSizes.parse(value);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(origin, e.getMessage());
        }
    }
}
