package io.kvtier.mooncake;

import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.ConfigurationException;
import io.kvtier.toolkit.Json;
import java.math.BigInteger;
import java.util.Map;

/**
 * Rejects values of Mooncake's own setup keys that are certainly wrong, at parse time and at the
 * key: Mooncake would otherwise fail much later with a vaguer error, or read them silently wrong
 * ({@code "16MB"} as 16 bytes, a NUL as the end of the string).
 */
final class SetupValueChecks {
    private final AdapterSettings settings;

    private SetupValueChecks(AdapterSettings settings) {
        this.settings = settings;
    }

    /** @throws ConfigurationException at the first key whose value Mooncake cannot use */
    static void check(AdapterSettings settings, Map<String, String> setup) {
        new SetupValueChecks(settings).check(setup);
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
        try {
            MasterAddress.parse(address);
        } catch (IllegalArgumentException e) {
            throw settings.error(key, key + " " + e.getMessage() + ", got " + declared(key));
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
