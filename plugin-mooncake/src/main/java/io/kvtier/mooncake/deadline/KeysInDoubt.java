package io.kvtier.mooncake.deadline;

import io.kvtier.spi.ObjectKey;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keys whose store or delete outlived its batch's deadline and still runs in Mooncake. A later
 * store or delete of such a key would race with it, and the older call could land last: a delete
 * undone, or an older object kept in place of a newer one (Mooncake keeps the first put of a key).
 * So such a key is refused until the older call has returned.
 */
final class KeysInDoubt {
    private final ConcurrentHashMap<ObjectKey, Integer> calls = new ConcurrentHashMap<>();

    void add(List<ObjectKey> keys) {
        keys.forEach(key -> calls.merge(key, 1, Integer::sum));
    }

    void remove(List<ObjectKey> keys) {
        keys.forEach(key -> calls.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1));
    }

    /** The first of {@code keys} in doubt, or null. */
    ObjectKey firstOf(List<ObjectKey> keys) {
        if (calls.isEmpty()) {
            return null;
        }
        for (ObjectKey key : keys) {
            if (calls.containsKey(key)) {
                return key;
            }
        }
        return null;
    }

    int size() {
        return calls.size();
    }
}
