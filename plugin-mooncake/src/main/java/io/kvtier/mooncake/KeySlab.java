package io.kvtier.mooncake;

import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * One thread's reusable native buffer for the keys of a batch: a {@code char*} array, an
 * {@code int32_t} length array and the key bytes, in one direct buffer. Encoding into it costs a
 * few nanoseconds per key, where marshalling a {@code String[]} through JNR costs hundreds: JNR
 * would allocate, encode and NUL-terminate every string on every call. Each lane thread has its
 * own slab (no locking); it grows when a batch needs more room and is never shrunk.
 */
final class KeySlab {
    private static final ThreadLocal<KeySlab> PER_THREAD = ThreadLocal.withInitial(KeySlab::new);
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();

    private int keyCapacity;
    private int byteCapacity;
    private ByteBuffer buffer;
    private long baseAddress;
    private Pointer keysPointer;
    private Pointer lengthsPointer;

    private KeySlab() {
        allocate(64, 64 * 96);
    }

    static KeySlab forCurrentThread() {
        return PER_THREAD.get();
    }

    /**
     * Encodes the keys at {@code indices[0..n)} of {@code keys} (all of them when
     * {@code indices} is null) as UTF-8. The pointers are valid until this thread's next encode.
     */
    void encode(List<ObjectKey> keys, int[] indices, int n) {
        byte[][] encoded = new byte[n][];
        int bytes = 0;
        for (int j = 0; j < n; j++) {
            encoded[j] = keys.get(indices == null ? j : indices[j]).wireString().getBytes(StandardCharsets.UTF_8);
            bytes += encoded[j].length;
        }
        if (n > keyCapacity || bytes > byteCapacity) {
            allocate(Math.max(n, keyCapacity * 2), Math.max(bytes, byteCapacity * 2));
        }
        int lengthsOffset = 8 * keyCapacity;
        int pos = lengthsOffset + 4 * keyCapacity;
        for (int j = 0; j < n; j++) {
            byte[] key = encoded[j];
            buffer.putLong(8 * j, baseAddress + pos);
            buffer.putInt(lengthsOffset + 4 * j, key.length);
            buffer.put(pos, key);
            pos += key.length;
        }
    }

    /** The {@code const char *const *keys} argument. */
    Pointer keys() {
        return keysPointer;
    }

    /** The {@code const int32_t *key_lens} argument. */
    Pointer lengths() {
        return lengthsPointer;
    }

    private void allocate(int keys, int bytes) {
        keyCapacity = keys;
        byteCapacity = bytes;
        buffer = ByteBuffer.allocateDirect(12 * keys + bytes).order(ByteOrder.nativeOrder());
        keysPointer = Pointer.wrap(RUNTIME, buffer);
        baseAddress = keysPointer.address();
        lengthsPointer = Pointer.wrap(RUNTIME, baseAddress + 8L * keys);
    }
}
