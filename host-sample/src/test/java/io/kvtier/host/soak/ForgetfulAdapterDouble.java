package io.kvtier.host.soak;

import io.kvtier.spi.ObjectKey;
import java.util.concurrent.atomic.AtomicLong;

/** Test double: answers OK to every store, but silently drops every {@code every}-th object. */
final class ForgetfulAdapterDouble extends InMemoryAdapterDouble {
    private final int every;
    private final AtomicLong stores = new AtomicLong();
    final AtomicLong forgotten = new AtomicLong();

    ForgetfulAdapterDouble(int every) {
        this.every = every;
    }

    @Override
    protected boolean keep(ObjectKey key) {
        if (stores.incrementAndGet() % every == 0) {
            forgotten.incrementAndGet();
            return false;
        }
        return true;
    }
}
