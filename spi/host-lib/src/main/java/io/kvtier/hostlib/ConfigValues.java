package io.kvtier.hostlib;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.kvtier.spi.ConfigurationException;
import io.kvtier.toolkit.Json;
import java.util.Map;

/** Host-side readers of values given outside declarations, e.g. command-line sizes. */
public final class ConfigValues {
    private ConfigValues() {}

    /** Compact JSON of a JSON-like value. */
    public static String toJson(Object value) {
        return Json.render(value);
    }

    /**
     * A byte size: a non-negative integer, or a string such as {@code 64 MiB} or {@code 1g}.
     *
     * @throws ConfigurationException at {@code origin} (e.g. {@code --l1-size}) with Typesafe's message
     */
    public static long bytes(String value, String origin) {
        try {
            long bytes = ConfigFactory.parseMap(Map.of("v", value)).getBytes("v");
            if (bytes >= 0) {
                return bytes;
            }
        } catch (ConfigException e) {
            throw new ConfigurationException(origin, "not a byte size such as 67108864 or \"64 MiB\": "
                    + Origins.problem(e).replace("at 'v'", "'" + value + "'"), e);
        }
        throw new ConfigurationException(origin, "must not be negative, got " + value);
    }
}
