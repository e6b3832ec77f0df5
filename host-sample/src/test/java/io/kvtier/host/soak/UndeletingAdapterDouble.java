package io.kvtier.host.soak;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ObjectKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Test double: answers OK to every delete of a stored key and deletes nothing, so the next store
 * of the key keeps the old value and loads return an older version.
 */
final class UndeletingAdapterDouble extends InMemoryAdapterDouble {
    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        return lookupAndLock(keys);
    }
}
