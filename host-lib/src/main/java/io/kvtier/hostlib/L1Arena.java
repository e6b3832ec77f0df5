package io.kvtier.hostlib;

import com.kenai.jffi.MemoryIO;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L1Slice;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The host's L1: one contiguous off-heap region, its own ({@link #allocate(long, long, boolean)})
 * or the host's ({@link #over}), with slices that are freed one by one ({@link #free}) or all at
 * once ({@link #reset}), so that a long-running host recycles them. Allocations are aligned, and
 * never cross a registration block of any adapter that asked for one. A slice is placed at the
 * lowest offset where it fits (first fit), and freed ranges merge with their free neighbours.
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
    /** Free ranges, offset to length, never adjacent to each other. */
    private final TreeMap<Long, Long> free = new TreeMap<>();
    /** Slices handed out, offset to the length of the range each holds. */
    private final Map<Long, Long> held = new HashMap<>();
    private long used;
    private boolean closed;

    /** @param allocation what {@link #close} frees; 0 for a region the host owns */
    private L1Arena(long allocation, long base, long size, long alignment, boolean fullyAllocated) {
        this.allocation = allocation;
        this.base = base;
        this.size = size;
        this.alignment = alignment;
        this.fullyAllocated = fullyAllocated;
        free.put(0L, size);
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

    /**
     * An arena over memory the host already owns (its own pinned buffer, say), which it keeps
     * alive until the arena is closed and frees itself afterwards: {@link #close} leaves it alone.
     *
     * @param address        the region's first byte, a multiple of {@code alignment}
     * @param fullyAllocated whether every page of it is backed, as RDMA registration needs
     */
    public static L1Arena over(long address, long size, long alignment, boolean fullyAllocated) {
        if (address == 0 || size <= 0 || alignment <= 0 || Long.bitCount(alignment) != 1 || address % alignment != 0) {
            throw new IllegalArgumentException("an L1 region needs a non-null address aligned to a power of two and a "
                    + "positive size (address=0x" + Long.toHexString(address) + ", size=" + size + ", alignment="
                    + alignment + ")");
        }
        return new L1Arena(0, address, size, alignment, fullyAllocated);
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

    /** @throws IllegalStateException when the arena has no free range that fits {@code length} bytes */
    public synchronized L1Slice allocate(int length) {
        if (closed) {
            throw new IllegalStateException("L1 arena is closed");
        }
        if (length <= 0) {
            throw new IllegalArgumentException("L1 allocations must be positive, got " + length);
        }
        for (Map.Entry<Long, Long> range : free.entrySet()) {
            long start = range.getKey();
            long end = start + range.getValue();
            long offset = placement(align(start), length);
            if (offset >= 0 && offset + length <= end) {
                // The slice holds its range up to the next aligned offset, so that what is left stays aligned.
                long taken = Math.min(end, align(offset + length)) - offset;
                free.remove(start);
                if (offset > start) {
                    free.put(start, offset - start);
                }
                if (offset + taken < end) {
                    free.put(offset + taken, end - offset - taken);
                }
                held.put(offset, taken);
                used += taken;
                return new L1Slice(base + offset, IO.newDirectByteBuffer(base + offset, length));
            }
        }
        throw new IllegalStateException("L1 arena of " + ConfigValues.readableBytes(size) + " is full ("
                + ConfigValues.readableBytes(used) + " used, " + ConfigValues.readableBytes(length)
                + " requested); raise --l1-size");
    }

    /**
     * Gives a slice's memory back for later allocations; the slice must no longer be used.
     *
     * @throws IllegalArgumentException when the slice is not one this arena handed out and still holds
     */
    public synchronized void free(L1Slice slice) {
        long offset = slice.address() - base;
        Long length = held.remove(offset);
        if (length == null) {
            throw new IllegalArgumentException("not a slice this L1 arena holds: 0x" + Long.toHexString(slice.address())
                    + " (" + slice.length() + " bytes)");
        }
        used -= length;
        long start = offset;
        long end = offset + length;
        Map.Entry<Long, Long> before = free.floorEntry(start);
        if (before != null && before.getKey() + before.getValue() == start) {
            start = before.getKey();
            free.remove(start);
        }
        Long after = free.remove(end);
        if (after != null) {
            end += after;
        }
        free.put(start, end - start);
    }

    /** The bytes that slices now hold, each counted up to the next aligned offset. */
    public synchronized long used() {
        return used;
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
        free.clear();
        free.put(0L, size);
        held.clear();
        used = 0;
    }

    public long size() {
        return size;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            if (allocation != 0) {
                IO.freeMemory(allocation);
            }
        }
    }
}
