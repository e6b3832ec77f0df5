package io.kvtier.mooncake.deadline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * An {@code int32_t} in native memory that Java and the connector both change atomically: a
 * batch's {@link SliceGuard} state, so that the connector can copy a load's bytes into L1 as each
 * transfer lands while a deadline may complete the batch at any time.
 */
public final class GuardWord {
    public static final int OPEN = 0;
    public static final int USING_SLICES = 1;
    public static final int COMPLETE = 2;

    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();

    /** Allocated zeroed, that is OPEN. */
    private final ByteBuffer word = ByteBuffer.allocateDirect(Integer.BYTES);
    private final Pointer pointer = Pointer.wrap(RUNTIME, word);

    public boolean compareAndSet(int expected, int next) {
        return INT.compareAndSet(word, 0, expected, next);
    }

    public int get() {
        return (int) INT.getVolatile(word, 0);
    }

    public void set(int value) {
        INT.setVolatile(word, 0, value);
    }

    /** Valid while this object is reachable. */
    public Pointer pointer() {
        return pointer;
    }
}
