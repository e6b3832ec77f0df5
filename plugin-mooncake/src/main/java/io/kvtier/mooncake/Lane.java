package io.kvtier.mooncake;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The four kinds of native batch call, each of which may get its own worker pool through
 * {@code per_op_workers}. The lane keys are LMCache's, so existing declarations keep working.
 */
public enum Lane {
    /** {@code batchIsExist}, used by lookups. */
    EXISTS("lookup"),
    /** {@code batch_get_into}, used by loads. */
    GET("retrieve"),
    /** {@code batch_put_from}, used by stores. */
    SET("store"),
    /** {@code batchRemove}, used by deletes. */
    DELETE("delete");

    private final String key;

    Lane(String key) {
        this.key = key;
    }

    /** The key of this lane in {@code per_op_workers}. */
    public String key() {
        return key;
    }

    public static Optional<Lane> fromKey(String key) {
        return Arrays.stream(values()).filter(l -> l.key.equals(key)).findFirst();
    }

    /** "lookup, retrieve, store, delete", for error messages. */
    public static String validKeys() {
        return Arrays.stream(values()).map(Lane::key).collect(Collectors.joining(", "));
    }
}
