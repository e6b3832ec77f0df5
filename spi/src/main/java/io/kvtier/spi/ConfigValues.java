package io.kvtier.spi;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValueFactory;
import java.util.List;
import java.util.Map;

/** Helpers for JSON-like declaration values (String, Boolean, Number, List, Map, null). */
public final class ConfigValues {
    private ConfigValues() {}

    /** The JSON name of a value's type: object, array, string, number, boolean or null. */
    public static String jsonType(Object value) {
        if (value == null) {
            return "null";
        } else if (value instanceof Map) {
            return "object";
        } else if (value instanceof List) {
            return "array";
        } else if (value instanceof String) {
            return "string";
        } else if (value instanceof Number) {
            return "number";
        } else if (value instanceof Boolean) {
            return "boolean";
        }
        return value.getClass().getSimpleName();
    }

    /** Renders a JSON-like value as compact JSON. */
    public static String toJson(Object value) {
        return ConfigValueFactory.fromAnyRef(value).render(ConfigRenderOptions.concise());
    }

    /** A byte size: a non-negative integer, or a string such as {@code 64 MiB} or {@code 1g}. */
    public static long bytes(Object value, String key) {
        if (value instanceof Integer || value instanceof Long) {
            long n = ((Number) value).longValue();
            if (n >= 0) {
                return n;
            }
        } else if (value instanceof String s) {
            try {
                return ConfigFactory.parseMap(Map.of("v", s)).getBytes("v");
            } catch (ConfigException e) {
                // reported below with the key and value
            }
        }
        throw new IllegalArgumentException(
                key + " must be a byte size such as 67108864 or \"64 MiB\", got " + toJson(value));
    }
}
