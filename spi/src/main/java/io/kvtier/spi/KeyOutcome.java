package io.kvtier.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * What happened to one key of a batch (since SPI revision 3).
 *
 * @param result what happened
 * @param bytes  the bytes moved for this key: for a store, the object's bytes when this store was
 *               its first (0 when it was already stored or failed); for a load, the bytes read;
 *               0 for lookups and deletes
 * @param error  present exactly when {@code result} is {@link KeyResult#ERROR}
 */
public record KeyOutcome(KeyResult result, long bytes, Optional<KeyError> error) {
    private static final KeyOutcome OK = new KeyOutcome(KeyResult.OK, 0, Optional.empty());
    private static final KeyOutcome MISSING = new KeyOutcome(KeyResult.MISSING, 0, Optional.empty());

    public KeyOutcome {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(error, "error");
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
        }
        if (error.isPresent() != (result == KeyResult.ERROR)) {
            throw new IllegalArgumentException("an outcome has an error exactly when it is ERROR: " + result + ", " + error);
        }
    }

    public static KeyOutcome ok() {
        return OK;
    }

    public static KeyOutcome ok(long bytes) {
        return bytes == 0 ? OK : new KeyOutcome(KeyResult.OK, bytes, Optional.empty());
    }

    public static KeyOutcome missing() {
        return MISSING;
    }

    public static KeyOutcome error(KeyError error) {
        return new KeyOutcome(KeyResult.ERROR, 0, Optional.of(error));
    }
}
