package io.kvtier.spi;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One L2 tier instance. Thread safe and asynchronous: each batch returns a future with one
 * result per key, in key order. A key that failed carries its {@link KeyError}. A batch-level
 * failure (the store could not be asked at all) completes the future exceptionally, with a
 * {@link BatchFailedException} when the adapter can classify it. An empty batch completes at once.
 * Keys and objects must have the same size; a mismatch throws {@link IllegalArgumentException}.
 * The caller keeps a batch's L1 slices alive and untouched until its future completes; after that
 * the adapter neither reads nor writes them. After {@link #close()}, every operation completes
 * exceptionally.
 *
 * <p>Methods added after revision 2 have defaults, so that an adapter built for revision 2 runs
 * unchanged in a newer host.
 */
public interface L2Adapter extends AutoCloseable {
    /**
     * OK per stored key; a key stored before stays as it was and is OK with 0 bytes.
     * {@link BatchResult#newBytes()} sums the bytes of keys that were not stored before.
     */
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

    /**
     * Adapter-specific facts for people and dashboards. Always contains {@code is_healthy} (Boolean)
     * and {@code type} (String); a host reads health from {@link #health()}.
     */
    Map<String, Object> status();

    /**
     * Whether batches are sent to the store, why not, since when, and which parts are unwell
     * (since revision 3). The default reads a revision-2 adapter's {@code status()}.
     */
    default Health health() {
        Map<String, Object> status = status();
        boolean healthy = Boolean.TRUE.equals(status.get("is_healthy"));
        Object reason = status.get("unhealthy_reason");
        String why = healthy ? "" : reason instanceof String s && !s.isEmpty() ? s : "status() says is_healthy = false";
        return new Health(healthy, why, Optional.empty(), Map.of());
    }

    void addListener(L2AdapterListener listener);

    /**
     * The size of the registration blocks that an L1 object must not cross, counted from the L1
     * base; 0 when the adapter places no such constraint. The host aligns its allocations to it.
     */
    default long l1BlockSize() {
        return 0;
    }

    /** Whether {@link #listKeys} is supported (since revision 3). */
    default boolean supportsKeyListing() {
        return false;
    }

    /**
     * One page of the keys this adapter holds, in an order that is stable across calls so that the
     * cursor converges; keys stored or evicted during a walk may or may not appear (since revision 3).
     *
     * @param model    only keys of this model, or null for every model
     * @param pageSize at most this many keys, > 0
     * @param cursor   null for the first page, else {@link KeyPage#nextCursor()} of the previous one
     * @throws UnsupportedOperationException when {@link #supportsKeyListing()} is false
     * @throws IllegalArgumentException      when {@code pageSize <= 0} or the cursor is not one of ours
     */
    default KeyPage listKeys(String model, int pageSize, String cursor) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot list its keys");
    }

    /**
     * Whether a host may evict from this adapter by its aggregate usage: true when it reports a
     * capacity, as in LMCache (since revision 3). Eviction by {@code cache_salt} needs only
     * {@link AdapterUsage#bytesByCacheSalt()}.
     */
    default boolean supportsGlobalEviction() {
        return usage().capacityBytes() > 0;
    }

    /** Idempotent. In-flight operations complete exceptionally with an "adapter closed" error. */
    @Override
    void close();

    /** @deprecated since revision 3: use {@code io.kvtier.toolkit.Batches.requireSameSize} */
    @Deprecated(since = "3")
    static void requireSameSize(List<ObjectKey> keys, List<L1Slice> objects) {
        if (keys.size() != objects.size()) {
            throw new IllegalArgumentException(
                    "keys and objects size mismatch: " + keys.size() + " keys, " + objects.size() + " objects");
        }
    }
}
