package io.kvtier.host.soak;

import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.ObjectKey;
import java.util.Collection;

/**
 * Test double of a Mooncake leader failover with a snapshot restore, as kvtier sees it under
 * {@code unchecked_objects = miss}, driven by the test: while {@link #failing} it fails every key
 * with {@code RPC_FAIL (-900)}; {@link #restore} replaces what it holds with the given keys, as a
 * new leader restores an older snapshot. A restored object has no checksum, so lookups and loads
 * report it missing, and it stays; a store of its key answers OK and keeps it, as Mooncake's put of
 * an existing key does.
 */
final class RestoringAdapterDouble extends InMemoryAdapterDouble {
    private static final byte[] RESTORED = new byte[0];

    volatile boolean failing;

    void restore(Collection<ObjectKey> snapshot) {
        objects.clear();
        snapshot.forEach(key -> objects.put(key, RESTORED));
    }

    @Override
    protected KeyError failure(String operation, ObjectKey key) {
        return failing ? KeyError.of(ErrorKind.TRANSIENT, -900, "Mooncake " + operation + " failed for key " + key + ": RPC_FAIL (-900)")
                : null;
    }

    @Override
    protected boolean visible(byte[] object) {
        return object != RESTORED;
    }
}
