package io.kvtier.spi;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One L2 tier instance. Thread safe and asynchronous: each batch returns a future of one
 * {@link KeyOutcome} per key, in key order. The promises below are what a host relies on; the
 * contract test kit ({@code io.kvtier:kvtier-adapter-testkit}, class
 * {@code io.kvtier.testkit.L2AdapterContract}) holds an adapter to them.
 *
 * <ul>
 *   <li><b>Per key.</b> A key is OK, MISSING (not in the store) or ERROR. An absent key is MISSING,
 *       never an ERROR; an ERROR never stands for an absent key, and carries its {@link KeyError}
 *       (a kind, the store's code when it has one, a message).</li>
 *   <li><b>A batch that failed as a whole</b> (the store could not be asked at all) completes its
 *       future exceptionally, with a {@link BatchFailedException} when the adapter can classify it.
 *       The call itself throws only the {@link IllegalArgumentException} below.</li>
 *   <li><b>An empty batch</b> returns a future that is already complete, with an empty result.</li>
 *   <li><b>Keys and objects</b> of {@link #store} and {@link #load} have the same size; a mismatch
 *       throws {@link IllegalArgumentException} from the call itself.</li>
 *   <li><b>L1 slices.</b> The caller keeps a batch's slices alive and untouched until its future
 *       completes; after that the adapter neither reads nor writes them.</li>
 *   <li><b>Listeners</b> ({@link #addListener}) hear each batch's content changes before its
 *       future completes, outside the adapter's locks.</li>
 *   <li><b>After {@link #close()}</b> every batch's future completes exceptionally, {@link #unlock}
 *       still never fails, {@link #listKeys} (of an adapter that lists) throws
 *       {@link IllegalStateException}, and {@link #health()} is unhealthy.</li>
 * </ul>
 *
 * <p>Methods added after revision 2 have defaults, so that an adapter built for revision 2 runs
 * unchanged in a newer host.
 */
public interface L2Adapter extends AutoCloseable {
    /**
     * Stores each object under its key. OK per stored key, with {@link KeyOutcome#bytes()} the
     * object's length when this store was the key's first, and 0 when the key was stored already:
     * it then keeps its first value. {@link BatchResult#newBytes()} is the sum of the keys' bytes.
     * Listeners hear {@link L2AdapterListener#onKeysStored} with the stored keys and, per key, its
     * bytes (0 for a key stored before).
     */
    CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects);

    /**
     * OK = found, and locked against the adapter's own eviction until {@link #unlock}; MISSING;
     * or ERROR. An error is never reported as a miss.
     */
    CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys);

    /** Releases locks taken by {@link #lookupAndLock}; unknown keys are ignored. Never fails, also after close. */
    void unlock(List<ObjectKey> keys);

    /**
     * Reads each object into its slice. OK only when exactly the object's length was read into a
     * slice of that length, with {@link KeyOutcome#bytes()} that length; a slice of another length
     * is an ERROR. MISSING when the key is absent. Listeners hear
     * {@link L2AdapterListener#onKeysAccessed} with the keys loaded OK.
     */
    CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects);

    /**
     * OK = deleted, MISSING = was not there. Listeners hear {@link L2AdapterListener#onKeysDeleted}
     * with the keys that were deleted.
     */
    CompletableFuture<BatchResult> delete(List<ObjectKey> keys);

    /**
     * The bytes held (a key's bytes count from its first store until its delete), the capacity
     * (0 when unknown or unlimited) and the bytes by cache salt.
     */
    AdapterUsage usage();

    /**
     * Adapter-specific facts for people and dashboards. Always contains {@code is_healthy} (Boolean)
     * and {@code type} (String); a host reads health from {@link #health()}.
     */
    Map<String, Object> status();

    /**
     * Whether batches are sent to the store, why not, since when, and which parts are unwell
     * (since revision 3): healthy while open and the store answers, unhealthy with a reason after
     * {@link #close()}. The default reads a revision-2 adapter's {@code status()}.
     */
    default Health health() {
        Map<String, Object> status = status();
        boolean healthy = Boolean.TRUE.equals(status.get("is_healthy"));
        Object reason = status.get("unhealthy_reason");
        String why = healthy ? "" : reason instanceof String s && !s.isEmpty() ? s : "status() says is_healthy = false";
        return new Health(healthy, why, Optional.empty(), Map.of());
    }

    /** Adds a listener of content and health changes; see {@link L2AdapterListener}. */
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
     * @throws IllegalStateException         when the adapter is closed
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

    /**
     * Releases the adapter. Idempotent. Every batch whose future was returned before close() began
     * is complete when it returns: with its result, or exceptionally with an "adapter closed" error.
     * A close called from one of the adapter's own threads (in a future's callback) cannot wait
     * for itself and may return first.
     */
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
