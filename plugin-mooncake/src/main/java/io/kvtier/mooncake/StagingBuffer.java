package io.kvtier.mooncake;

import java.nio.ByteBuffer;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * One lane thread's native memory, owned by kvtier, that a load's replicas outside memory (disk,
 * NoF) land in, so that a native call which outlives its batch never writes the caller's L1 slices:
 * Mooncake reads those with no receive that the connector could hold back (replicas in memory are
 * received straight into L1 under the batch's guard). A lane thread whose call was abandoned keeps
 * its buffer until the call returns; the thread that replaces it has its own. It grows to the
 * largest batch and is never shrunk.
 */
final class StagingBuffer {
    private static final ThreadLocal<StagingBuffer> PER_THREAD = ThreadLocal.withInitial(StagingBuffer::new);
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();

    private ByteBuffer buffer = ByteBuffer.allocateDirect(0);
    private long base = Pointer.wrap(RUNTIME, buffer).address();

    /** Long enough for any transfer Mooncake gave up on to have ended: its fixed 60 s, and some. */
    private static final long RETIRED_NANOS = TimeUnit.SECONDS.toNanos(90);
    /** Buffers that a failed transfer may still write into or read from, kept alive till then. */
    private static final Deque<Retired> RETIRED = new ConcurrentLinkedDeque<>();

    private record Retired(ByteBuffer buffer, long untilNanos) {}

    static StagingBuffer forCurrentThread() {
        return PER_THREAD.get();
    }

    /**
     * After a load in which Mooncake reported a transfer failed (TRANSFER_FAIL): that transfer may
     * still deliver bytes into this buffer (seen on a flapping link), so the thread's next batch
     * gets a fresh one and this one is kept, unused, until no transfer can touch it.
     */
    void retire() {
        long now = System.nanoTime();
        while (!RETIRED.isEmpty() && now - RETIRED.peekFirst().untilNanos() > 0) {
            RETIRED.pollFirst();
        }
        RETIRED.addLast(new Retired(buffer, now + RETIRED_NANOS));
        buffer = ByteBuffer.allocateDirect(buffer.capacity());
        base = Pointer.wrap(RUNTIME, buffer).address();
    }

    /** One address per size, back to back in this buffer; valid until this thread's next call. */
    long[] layout(long[] sizes) {
        long total = 0;
        for (long size : sizes) {
            total += size;
        }
        if (total > buffer.capacity()) {
            if (total > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("a batch of " + total + " bytes is larger than a staging buffer (2 GiB)");
            }
            buffer = ByteBuffer.allocateDirect((int) Math.max(total, Math.min(Integer.MAX_VALUE, 2L * buffer.capacity())));
            base = Pointer.wrap(RUNTIME, buffer).address();
        }
        long[] addresses = new long[sizes.length];
        long offset = 0;
        for (int j = 0; j < sizes.length; j++) {
            addresses[j] = base + offset;
            offset += sizes[j];
        }
        return addresses;
    }
}
