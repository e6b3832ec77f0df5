package io.kvtier.spi;

import java.nio.ByteBuffer;

/**
 * One object's bytes in L1: a direct buffer exactly the object's size, and its native address.
 * The caller owns it and keeps it alive until the operation's future completes.
 */
public record L1Slice(long address, ByteBuffer buffer) {
    public L1Slice {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("L1 slices must be direct buffers");
        }
    }

    public int length() {
        return buffer.capacity();
    }
}
