package io.kvtier.mooncake.binding;

import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * One thread's reusable native memory for the arguments of a batch call: the keys (a {@code char*}
 * array, an {@code int32_t} length array and the key bytes), the buffer addresses and sizes, and
 * the per-key results, all in one direct buffer. Every batch
 * argument thus crosses JNR-FFI as a plain address. Encoding a key here costs a few nanoseconds,
 * where marshalling a {@code String[]} through JNR costs hundreds (it allocates, encodes and
 * NUL-terminates every string on every call), and heap arrays would take JNR's object-parameter
 * path, which copies each array in and out and is slow until the JIT has compiled it. Each lane
 * thread has its own slab (no locking); it grows when a batch needs more room and is never shrunk.
 */
public final class BatchSlab {
    private static final ThreadLocal<BatchSlab> PER_THREAD = ThreadLocal.withInitial(BatchSlab::new);
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();
    /** Per key: a key pointer, an address, a size and a result (8 bytes each); a length and two nodes (4). */
    private static final int BYTES_PER_KEY = 4 * Long.BYTES + 3 * Integer.BYTES;

    private int keyCapacity;
    private int byteCapacity;
    private ByteBuffer buffer;
    private long baseAddress;
    private Pointer keysPointer;
    private Pointer addressesPointer;
    private Pointer sizesPointer;
    private Pointer resultsPointer;
    private Pointer lengthsPointer;
    private Pointer nodesPointer;
    private Pointer avoidedPointer;

    private BatchSlab() {
        allocate(64, 64 * 96);
    }

    public static BatchSlab forCurrentThread() {
        return PER_THREAD.get();
    }

    /**
     * Encodes the keys at {@code indices[0..n)} of {@code keys} (all of them when
     * {@code indices} is null) as UTF-8. The pointers are valid until this thread's next encode.
     */
    public void encode(List<ObjectKey> keys, int[] indices, int n) {
        byte[][] encoded = new byte[n][];
        int bytes = 0;
        for (int j = 0; j < n; j++) {
            encoded[j] = keys.get(indices == null ? j : indices[j]).wireString().getBytes(StandardCharsets.UTF_8);
            bytes += encoded[j].length;
        }
        if (n > keyCapacity || bytes > byteCapacity) {
            allocate(Math.max(n, keyCapacity * 2), Math.max(bytes, byteCapacity * 2));
        }
        int lengthsOffset = lengthsOffset();
        int pos = lengthsOffset + 3 * Integer.BYTES * keyCapacity;
        for (int j = 0; j < n; j++) {
            byte[] key = encoded[j];
            buffer.putLong(Long.BYTES * j, baseAddress + pos);
            buffer.putInt(lengthsOffset + Integer.BYTES * j, key.length);
            buffer.put(pos, key);
            pos += key.length;
        }
    }

    /** Copies the first {@code n} buffer addresses and sizes in; call after {@link #encode}. */
    void buffers(long[] addresses, long[] sizes, int n) {
        for (int j = 0; j < n; j++) {
            buffer.putLong(Long.BYTES * (keyCapacity + j), addresses[j]);
            buffer.putLong(Long.BYTES * (2 * keyCapacity + j), sizes[j]);
        }
    }

    /** The first {@code n} results the connector wrote. */
    long[] results(int n) {
        long[] results = new long[n];
        for (int j = 0; j < n; j++) {
            results[j] = buffer.getLong(Long.BYTES * (3 * keyCapacity + j));
        }
        return results;
    }

    /** The first {@code n} node ids kvt_load wrote to its {@code nodes}. */
    int[] nodes(int n) {
        return ints(lengthsOffset() + Integer.BYTES * keyCapacity, n);
    }

    /** The first {@code n} node ids kvt_load wrote to its {@code avoided}. */
    int[] avoided(int n) {
        return ints(lengthsOffset() + 2 * Integer.BYTES * keyCapacity, n);
    }

    private int[] ints(int offset, int n) {
        int[] ints = new int[n];
        for (int j = 0; j < n; j++) {
            ints[j] = buffer.getInt(offset + Integer.BYTES * j);
        }
        return ints;
    }

    /** The {@code int32_t *nodes} argument of kvt_load. */
    Pointer nodes() {
        return nodesPointer;
    }

    /** The {@code int32_t *avoided} argument of kvt_load. */
    Pointer avoided() {
        return avoidedPointer;
    }

    /** The {@code const char *const *keys} argument. */
    Pointer keys() {
        return keysPointer;
    }

    /** The {@code const int32_t *key_lens} argument. */
    Pointer lengths() {
        return lengthsPointer;
    }

    /** The {@code const int64_t *addrs} argument. */
    Pointer addresses() {
        return addressesPointer;
    }

    /** The {@code const int64_t *sizes} argument. */
    Pointer sizes() {
        return sizesPointer;
    }

    /** The {@code int64_t *results} argument. */
    Pointer results() {
        return resultsPointer;
    }

    private int lengthsOffset() {
        return 4 * Long.BYTES * keyCapacity;
    }

    private void allocate(int keys, int bytes) {
        keyCapacity = keys;
        byteCapacity = bytes;
        buffer = ByteBuffer.allocateDirect(BYTES_PER_KEY * keys + bytes).order(ByteOrder.nativeOrder());
        keysPointer = Pointer.wrap(RUNTIME, buffer);
        baseAddress = keysPointer.address();
        addressesPointer = Pointer.wrap(RUNTIME, baseAddress + (long) Long.BYTES * keys);
        sizesPointer = Pointer.wrap(RUNTIME, baseAddress + 2L * Long.BYTES * keys);
        resultsPointer = Pointer.wrap(RUNTIME, baseAddress + 3L * Long.BYTES * keys);
        lengthsPointer = Pointer.wrap(RUNTIME, baseAddress + (long) lengthsOffset());
        nodesPointer = Pointer.wrap(RUNTIME, baseAddress + (long) lengthsOffset() + (long) Integer.BYTES * keys);
        avoidedPointer = Pointer.wrap(RUNTIME, baseAddress + (long) lengthsOffset() + 2L * Integer.BYTES * keys);
    }
}
