package io.kvtier.spi;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One L2 tier instance. Thread safe and asynchronous: each batch returns a future with one
 * result per key, in key order. A batch-level failure (the store could not be asked at all)
 * completes the future exceptionally with the cause. An empty batch completes at once.
 * Keys and objects must have the same size; a mismatch throws {@link IllegalArgumentException}.
 * After {@link #close()}, every operation completes exceptionally.
 */
public interface L2Adapter extends AutoCloseable {
    /** OK per stored key; {@link BatchResult#newBytes()} counts keys that were not stored before. */
    CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects);

    /** OK = found (and locked), MISSING, or ERROR: an error is never reported as a miss. */
    CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys);

    /** Releases locks taken by {@link #lookupAndLock}; unknown keys are ignored. Never fails. */
    void unlock(List<ObjectKey> keys);

    /** OK only when exactly the object's length was read into its slice. */
    CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects);

    /** OK = deleted, MISSING = was not there. */
    CompletableFuture<BatchResult> delete(List<ObjectKey> keys);

    AdapterUsage usage();

    /** Always contains {@code is_healthy} (Boolean) and {@code type} (String). */
    Map<String, Object> status();

    void addListener(L2AdapterListener listener);

    /**
     * The size of the registration blocks that an L1 object must not cross, counted from the L1
     * base; 0 when the adapter places no such constraint. The host aligns its allocations to it.
     */
    default long l1BlockSize() {
        return 0;
    }

    /** Idempotent. In-flight operations complete exceptionally with an "adapter closed" error. */
    @Override
    void close();

    static void requireSameSize(List<ObjectKey> keys, List<L1Slice> objects) {
        if (keys.size() != objects.size()) {
            throw new IllegalArgumentException(
                    "keys and objects size mismatch: " + keys.size() + " keys, " + objects.size() + " objects");
        }
    }
}
