package io.kvtier.mooncake.config;

import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.ConfigurationException;
import io.kvtier.toolkit.Json;
import java.math.BigInteger;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Rejects values of Mooncake's own setup keys that are certainly wrong, at parse time and at the
 * key: Mooncake would otherwise fail much later with a vaguer error, or read them silently wrong
 * ({@code "16MB"} as 16 bytes, a NUL as the end of the string). That includes an HA backend
 * that the connector's Mooncake was built without.
 */
final class SetupValueChecks {
    private final AdapterSettings settings;
    private final Supplier<ConnectorBuild> connector;

    private SetupValueChecks(AdapterSettings settings, Supplier<ConnectorBuild> connector) {
        this.settings = settings;
        this.connector = connector;
    }

    /**
     * @param connector the build of the connector that would serve the declaration, asked only
     *     when master_server_addr names an HA backend
     * @throws ConfigurationException at the first key whose value Mooncake cannot use
     */
    static void check(AdapterSettings settings, Map<String, String> setup, Supplier<ConnectorBuild> connector) {
        new SetupValueChecks(settings, connector).check(setup);
    }

    private void check(Map<String, String> setup) {
        setup.forEach((key, value) -> {
            if (key.indexOf('\0') >= 0 || value.indexOf('\0') >= 0) {
                throw settings.error(key, key.replace("\0", "\\0") + " contains a NUL character, which would end the "
                        + "string Mooncake reads: " + Json.render(value));
            }
        });
        String protocol = setup.get("protocol");
        if (protocol != null && !protocol.equalsIgnoreCase("tcp") && !protocol.equalsIgnoreCase("rdma")) {
            throw settings.error("protocol", "protocol must be tcp or rdma, got " + declared("protocol"));
        }
        masterAddress(setup.get("master_server_addr"));
        byteCount("global_segment_size", setup.get("global_segment_size"));
        byteCount("local_buffer_size", setup.get("local_buffer_size"));
    }

    private void masterAddress(String address) {
        String key = "master_server_addr";
        if (address == null) {
            throw settings.error(key, key + " is required: " + MasterAddress.FORMS);
        }
        MasterAddress master;
        try {
            master = MasterAddress.parse(address);
        } catch (IllegalArgumentException e) {
            throw settings.error(key, key + " " + e.getMessage() + ", got " + declared(key));
        }
        if (master.direct()) {
            return;
        }
        // Mooncake would take the value and fail only at creation, with INTERNAL_ERROR and its log
        // saying "Invalid HA backend entry".
        ConnectorBuild build = connector.get();
        if (!build.has(master.backend())) {
            throw settings.error(key, key + " = " + declared(key) + " names Mooncake's " + master.backend().scheme
                    + " HA backend, but the connector was built without it (" + build.source() + "): use a connector "
                    + "built from a Mooncake with " + master.backend().buildOption + ", or give one master's host:port "
                    + "(no failover)");
        }
    }

    /** The value as the user wrote it: a number stays a number, not its forwarded string. */
    private String declared(String key) {
        return Json.render(settings.get(key));
    }

    /** A count of bytes in decimal digits: Mooncake parses the leading digits and ignores the rest. */
    private void byteCount(String key, String value) {
        if (value == null) {
            return;
        }
        boolean valid = !value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')
                && new BigInteger(value).bitLength() < Long.SIZE;
        if (!valid) {
            throw settings.error(key, key + " must be a non-negative integer number of bytes (at most "
                    + Long.MAX_VALUE + "), got " + declared(key));
        }
    }
}
