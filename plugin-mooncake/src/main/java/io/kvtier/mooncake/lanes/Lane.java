package io.kvtier.mooncake.lanes;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The four operations, each of which may get its own worker pool through {@code per_op_workers}.
 * An operation has one name everywhere in kvtier: the {@link io.kvtier.spi.L2Adapter} method, the
 * metric, the pool and thread name, and the C ABI function ({@code kvt_<operation>}). Only the
 * {@code per_op_workers} keys are LMCache's, so existing declarations keep working.
 */
public enum Lane {
    /** Mooncake's {@code batchIsExist}; per_op_workers key {@code lookup}. */
    LOOKUP("lookup"),
    /** Mooncake's {@code batch_get_into}; per_op_workers key {@code retrieve}. */
    LOAD("retrieve"),
    /** Mooncake's {@code batch_put_from}; per_op_workers key {@code store}. */
    STORE("store"),
    /** Mooncake's {@code batchRemove}; per_op_workers key {@code delete}. */
    DELETE("delete");

    private final String key;

    Lane(String key) {
        this.key = key;
    }

    /** The key of this lane in {@code per_op_workers}. */
    public String key() {
        return key;
    }

    /** The operation's name: lookup, load, store or delete. */
    public String operation() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Lane> fromKey(String key) {
        return Arrays.stream(values()).filter(l -> l.key.equals(key)).findFirst();
    }

    /** "lookup, retrieve, store, delete", for error messages. */
    public static String validKeys() {
        return Arrays.stream(values()).map(Lane::key).collect(Collectors.joining(", "));
    }
}
