package io.kvtier.hostlib;

import com.kenai.jffi.MemoryIO;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L1Slice;
import java.util.ArrayList;
import java.util.List;

/**
 * The host's L1: one contiguous off-heap region with a bump allocator. Allocations are aligned,
 * and never cross a registration block of any adapter that asked for one.
 */
public final class L1Arena implements AutoCloseable {
    public static final long DEFAULT_ALIGNMENT = 4096;
    private static final MemoryIO IO = MemoryIO.getInstance();

    private final long allocation;
    private final long base;
    private final long size;
    private final long alignment;
    private final boolean fullyAllocated;
    private final List<Long> blockSizes = new ArrayList<>();
    private long next;
    private boolean closed;

    private L1Arena(long allocation, long base, long size, long alignment, boolean fullyAllocated) {
        this.allocation = allocation;
        this.base = base;
        this.size = size;
        this.alignment = alignment;
        this.fullyAllocated = fullyAllocated;
    }

    /**
     * @param eager touch every page now, so that the whole region is backed (what RDMA
     *              registration needs); otherwise pages are backed on first use
     */
    public static L1Arena allocate(long size, long alignment, boolean eager) {
        if (size <= 0 || alignment <= 0 || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("L1 size must be positive and alignment a power of two (size=" + size
                    + ", alignment=" + alignment + ")");
        }
        long allocation = IO.allocateMemory(size + alignment, false);
        if (allocation == 0) {
            throw new IllegalStateException("cannot allocate an L1 arena of " + ConfigValues.readableBytes(size));
        }
        long base = (allocation + alignment - 1) & -alignment;
        if (eager) {
            IO.setMemory(base, size, (byte) 0);
        }
        return new L1Arena(allocation, base, size, alignment, eager);
    }

    public L1MemoryDesc desc() {
        return new L1MemoryDesc(base, size, alignment, fullyAllocated);
    }

    /** Makes later allocations stay inside blocks of {@code blockSize} bytes (0 = no constraint). */
    public synchronized void keepWithinBlocks(long blockSize) {
        if (blockSize > 0) {
            blockSizes.add(blockSize);
        }
    }

    /** @throws IllegalStateException when the arena cannot fit {@code length} more bytes */
    public synchronized L1Slice allocate(int length) {
        if (closed) {
            throw new IllegalStateException("L1 arena is closed");
        }
        if (length <= 0) {
            throw new IllegalArgumentException("L1 allocations must be positive, got " + length);
        }
        long offset = placement(align(next), length);
        if (offset < 0 || offset + length > size) {
            throw new IllegalStateException("L1 arena of " + ConfigValues.readableBytes(size) + " is full ("
                    + ConfigValues.readableBytes(next) + " used, " + ConfigValues.readableBytes(length)
                    + " requested); raise --l1-size");
        }
        next = offset + length;
        return new L1Slice(base + offset, IO.newDirectByteBuffer(base + offset, length));
    }

    /** The first aligned offset from {@code offset} at which {@code length} bytes cross no block; -1 if none. */
    private long placement(long offset, long length) {
        boolean moved = true;
        while (moved) {
            moved = false;
            for (long block : blockSizes) {
                if (length > block) {
                    return -1;
                }
                if (offset / block != (offset + length - 1) / block) {
                    offset = align((offset / block + 1) * block);
                    moved = true;
                }
            }
        }
        return offset;
    }

    private long align(long offset) {
        return (offset + alignment - 1) & -alignment;
    }

    /** Sets every byte of {@code slice} to 0. */
    public static void zero(L1Slice slice) {
        IO.setMemory(slice.address(), slice.length(), (byte) 0);
    }

    /** Frees every allocation at once; slices handed out before must no longer be used. */
    public synchronized void reset() {
        next = 0;
    }

    public long size() {
        return size;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            IO.freeMemory(allocation);
        }
    }
}
