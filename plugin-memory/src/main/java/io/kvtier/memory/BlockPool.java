package io.kvtier.memory;

import com.kenai.jffi.MemoryIO;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Off-heap blocks for the memory tier, recycled by size. KV-cache chunks mostly share one size,
 * and memory fresh from the allocator costs a page fault per page on its first write (glibc
 * returns large freed blocks to the kernel), so a freed block is kept for the next object of
 * its size while the tier has room for it.
 */
final class BlockPool {
    private static final MemoryIO IO = MemoryIO.getInstance();

    private final Map<Integer, ArrayDeque<Long>> spare = new HashMap<>();
    private long spareBytes;

    /** @return the address of {@code length} writable bytes, or 0 when none can be had */
    long allocate(int length) {
        synchronized (this) {
            ArrayDeque<Long> blocks = spare.get(length);
            if (blocks != null && !blocks.isEmpty()) {
                spareBytes -= length;
                return blocks.pop();
            }
        }
        return IO.allocateMemory(length, false);
    }

    /** Keeps the block for reuse if the spare blocks stay within {@code room} bytes, else frees it. */
    void release(long address, int length, long room) {
        synchronized (this) {
            if (spareBytes + length <= room) {
                spare.computeIfAbsent(length, l -> new ArrayDeque<>()).push(address);
                spareBytes += length;
                return;
            }
        }
        IO.freeMemory(address);
    }

    /** Frees every spare block. */
    synchronized void clear() {
        spare.values().forEach(blocks -> blocks.forEach(IO::freeMemory));
        spare.clear();
        spareBytes = 0;
    }
}
