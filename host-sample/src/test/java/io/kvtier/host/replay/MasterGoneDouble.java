package io.kvtier.host.replay;

import io.kvtier.host.soak.InMemoryAdapterDouble;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** Test double of a store whose master is gone: every key of every batch is an RPC_FAIL error; it counts the batches. */
final class MasterGoneDouble extends InMemoryAdapterDouble {
    final AtomicInteger batches = new AtomicInteger();

    @Override
    protected KeyError failure(String operation, ObjectKey key) {
        return KeyError.of(ErrorKind.TRANSIENT, -900, "Mooncake " + operation + " failed for key " + key + ": RPC_FAIL (-900)");
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> slices) {
        batches.incrementAndGet();
        return super.store(keys, slices);
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        batches.incrementAndGet();
        return super.lookupAndLock(keys);
    }

    @Override
    public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> slices) {
        batches.incrementAndGet();
        return super.load(keys, slices);
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        batches.incrementAndGet();
        return super.delete(keys);
    }
}
