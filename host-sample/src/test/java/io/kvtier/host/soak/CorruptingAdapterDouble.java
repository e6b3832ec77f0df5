package io.kvtier.host.soak;

import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/** Test double: flips one byte of every {@code every}-th object it loads, and still answers OK. */
public final class CorruptingAdapterDouble extends InMemoryAdapterDouble {
    private final int every;
    private final AtomicLong loads = new AtomicLong();
    public final AtomicLong flipped = new AtomicLong();

    public CorruptingAdapterDouble(int every) {
        this.every = every;
    }

    @Override
    protected void loaded(ObjectKey key, ByteBuffer slice) {
        if (loads.incrementAndGet() % every == 0) {
            int at = slice.capacity() / 2;
            slice.put(at, (byte) (slice.get(at) ^ 0x01));
            flipped.incrementAndGet();
        }
    }
}
