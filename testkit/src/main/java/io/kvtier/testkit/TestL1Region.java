package io.kvtier.testkit;

import com.kenai.jffi.MemoryIO;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L1Slice;
import java.nio.ByteBuffer;
import java.util.Random;

/**
 * An off-heap L1 region for tests: page-aligned, every page backed (the JDK zeroes a direct
 * buffer), handing out {@link L1Slice}s one after another. The JVM frees it once it is
 * unreachable, so keep it referenced until every adapter over it is closed.
 */
public final class TestL1Region {
    public static final int ALIGNMENT = 4096;

    private final ByteBuffer buffer;
    private final long address;
    private int next;

    public TestL1Region(int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("an L1 region has a positive size, got " + size);
        }
        buffer = ByteBuffer.allocateDirect(size + 2 * ALIGNMENT).alignedSlice(ALIGNMENT).limit(size).slice();
        address = MemoryIO.getInstance().getDirectBufferAddress(buffer);
    }

    /** The region as a host hands it to a provider, in {@code AdapterContext.l1()}. */
    public L1MemoryDesc desc() {
        return new L1MemoryDesc(address, buffer.capacity(), ALIGNMENT, true);
    }

    /** The next {@code length} bytes, zeroed, at an address aligned to 64 bytes. */
    public synchronized L1Slice slice(int length) {
        if (length <= 0) {
            throw new IllegalArgumentException("a slice has a positive length, got " + length);
        }
        int offset = (next + 63) & -64;
        if (offset > buffer.capacity() - length) {
            throw new IllegalStateException("L1 region of " + buffer.capacity() + " bytes is full: " + next
                    + " used, " + length + " asked for");
        }
        next = offset + length;
        ByteBuffer view = buffer.slice(offset, length);
        view.put(0, new byte[length]);
        return new L1Slice(address + offset, view);
    }

    /** A slice of {@code length} bytes holding {@link #content(int, long)}. */
    public L1Slice filled(int length, long seed) {
        L1Slice slice = slice(length);
        slice.buffer().put(0, content(length, seed));
        return slice;
    }

    /** Seeded random bytes: what {@link #filled} writes. */
    public static byte[] content(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** A copy of a slice's bytes. */
    public static byte[] bytes(L1Slice slice) {
        byte[] bytes = new byte[slice.length()];
        slice.buffer().get(0, bytes);
        return bytes;
    }
}
