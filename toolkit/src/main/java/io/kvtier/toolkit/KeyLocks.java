package io.kvtier.toolkit;

import io.kvtier.spi.ObjectKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Lookup-and-lock reference counts. The locks are host-side bookkeeping: a store that evicts
 * on its own (Mooncake) may still drop a locked key, which the load then reports as missing.
 */
public final class KeyLocks {
    private final Map<ObjectKey, Integer> counts = new HashMap<>();

    public synchronized void lock(ObjectKey key) {
        counts.merge(key, 1, Integer::sum);
    }

    /** Unknown keys are ignored: unlock never fails. */
    public synchronized void unlock(List<ObjectKey> keys) {
        for (ObjectKey key : keys) {
            counts.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
        }
    }

    public synchronized boolean isLocked(ObjectKey key) {
        return counts.containsKey(key);
    }
}
