package io.kvtier.spi;

import java.util.List;

/**
 * Observes an adapter's contents, e.g. to drive a host-side LRU. The content calls come outside the
 * adapter's locks, before the future of the batch that made the change completes.
 */
public interface L2AdapterListener {
    /** Keys stored OK, each with its bytes; a size of 0 means the key was already stored and was only refreshed. */
    default void onKeysStored(List<ObjectKey> keys, List<Long> sizes) {}

    /** Keys loaded OK. */
    default void onKeysAccessed(List<ObjectKey> keys) {}

    /** Keys a delete removed, or found gone (evicted by the store) while the adapter still counted them. */
    default void onKeysDeleted(List<ObjectKey> keys) {}

    /**
     * The adapter's health changed (since SPI revision 3). Called on one of the adapter's threads,
     * so keep it short. The default passes it on to the revision-2 form.
     */
    default void onHealthChanged(Health health) {
        onHealthChanged(health.healthy(), health.reason());
    }

    /**
     * The adapter's health changed; {@code reason} says why (since SPI revision 2).
     *
     * @deprecated since revision 3: override {@link #onHealthChanged(Health)}
     */
    @Deprecated(since = "3")
    default void onHealthChanged(boolean healthy, String reason) {}
}
