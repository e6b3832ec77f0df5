package io.kvtier.mooncake.config;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a load does with an object stored without a checksum (the option {@code unchecked_objects}).
 * Mooncake's clients at their defaults store every object so, and a master promoted from a snapshot
 * serves every restored object so, pointing at memory that objects stored since may have reused;
 * nothing Mooncake tells a client separates the two. The native codes are the connector's
 * {@code KVT_UNCHECKED_*}.
 */
public enum UncheckedObjects {
    /** Read it unverified, as every Mooncake client does. */
    LOAD("load", 0),
    /** Report it missing and leave it in place. */
    MISS("miss", 1),
    /** Report it missing and remove it, so that a store can replace it: for a cluster whose every writer checksums. */
    REMOVE("remove", 2);

    private final String key;
    private final int nativeCode;

    UncheckedObjects(String key, int nativeCode) {
        this.key = key;
        this.nativeCode = nativeCode;
    }

    /** As a declaration writes it. */
    public String key() {
        return key;
    }

    /** The connector's {@code KVT_UNCHECKED_*}. */
    public int nativeCode() {
        return nativeCode;
    }

    static Optional<UncheckedObjects> fromKey(String key) {
        return Arrays.stream(values()).filter(v -> v.key.equals(key)).findFirst();
    }

    static String validKeys() {
        return Arrays.stream(values()).map(UncheckedObjects::key).collect(Collectors.joining(", "));
    }
}
