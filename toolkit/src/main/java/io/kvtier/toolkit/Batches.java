package io.kvtier.toolkit;

import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.util.List;

/** Checks every adapter makes of a batch's arguments. */
public final class Batches {
    private Batches() {}

    /** @throws IllegalArgumentException when there is not one object per key */
    public static void requireSameSize(List<ObjectKey> keys, List<L1Slice> objects) {
        if (keys.size() != objects.size()) {
            throw new IllegalArgumentException(
                    "keys and objects size mismatch: " + keys.size() + " keys, " + objects.size() + " objects");
        }
    }
}
