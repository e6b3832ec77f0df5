package io.kvtier.host.replay;

import io.kvtier.host.soak.InMemoryAdapterDouble;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.ObjectKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test double: answers a lookup truly, then drops every {@code every}-th key of the leading run it
 * found, as a store that evicts a key it reported found, so that the load finds it missing.
 */
final class ForgetsAfterLookupDouble extends InMemoryAdapterDouble {
    private final int every;
    private final AtomicLong found = new AtomicLong();
    final AtomicLong forgotten = new AtomicLong();

    ForgetsAfterLookupDouble(int every) {
        this.every = every;
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        CompletableFuture<BatchResult> result = super.lookupAndLock(keys);
        BatchResult answer = result.join();
        for (int i = 0; i < answer.size() && answer.get(i) == KeyResult.OK; i++) {
            if (found.incrementAndGet() % every == 0 && objects.remove(keys.get(i)) != null) {
                forgotten.incrementAndGet();
            }
        }
        return result;
    }
}
