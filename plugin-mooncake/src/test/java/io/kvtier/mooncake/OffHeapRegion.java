package io.kvtier.mooncake;

import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L1Slice;
import java.nio.ByteBuffer;
import java.util.Random;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/** A real off-heap region standing in for the host's L1 arena in tests. */
final class OffHeapRegion {
    final ByteBuffer buffer;
    final long address;

    OffHeapRegion(int size) {
        buffer = ByteBuffer.allocateDirect(size);
        address = Pointer.wrap(Runtime.getSystemRuntime(), buffer).address();
    }

    int size() {
        return buffer.capacity();
    }

    L1MemoryDesc desc(boolean fullyAllocated) {
        return new L1MemoryDesc(address, size(), 64, fullyAllocated);
    }

    L1Slice slice(int offset, int length) {
        return new L1Slice(address + offset, buffer.slice(offset, length));
    }

    /** A slice whose address claims to be somewhere else (null, outside...), backed by real memory. */
    L1Slice fakeAddress(long fakeAddress, int length) {
        return new L1Slice(fakeAddress, buffer.slice(0, length));
    }

    void fill(int offset, int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        buffer.put(offset, bytes);
    }

    byte[] read(int offset, int length) {
        byte[] bytes = new byte[length];
        buffer.get(offset, bytes);
        return bytes;
    }

    static byte[] expected(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
