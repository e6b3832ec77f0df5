package io.kvtier.toolkit;

import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Byte accounting per key and per cache salt, plus listener fan-out, shared by adapters.
 * Counters change under one lock; listeners are called after it is released so that a slow
 * or re-entrant listener cannot stall the adapter.
 */
public final class UsageTracker {
    private final long capacityBytes;
    private final Map<ObjectKey, Long> sizes = new HashMap<>();
    private final Map<String, Long> bytesBySalt = new HashMap<>();
    private final List<L2AdapterListener> listeners = new CopyOnWriteArrayList<>();
    private long totalBytes;

    public UsageTracker(long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    public void addListener(L2AdapterListener listener) {
        listeners.add(listener);
    }

    /**
     * Records stored keys. A key seen before is not counted again and is reported to
     * listeners with size 0.
     *
     * @return the bytes of the keys that were new
     */
    public long recordStored(List<ObjectKey> keys, List<Long> objectSizes) {
        List<Long> notified = new ArrayList<>(keys.size());
        long added = 0;
        synchronized (this) {
            for (int i = 0; i < keys.size(); i++) {
                ObjectKey key = keys.get(i);
                long size = objectSizes.get(i);
                if (sizes.putIfAbsent(key, size) == null) {
                    totalBytes += size;
                    bytesBySalt.merge(key.cacheSalt(), size, Long::sum);
                    added += size;
                    notified.add(size);
                } else {
                    notified.add(0L);
                }
            }
        }
        if (!keys.isEmpty()) {
            listeners.forEach(l -> l.onKeysStored(keys, notified));
        }
        return added;
    }

    public void recordAccessed(List<ObjectKey> keys) {
        if (!keys.isEmpty()) {
            listeners.forEach(l -> l.onKeysAccessed(keys));
        }
    }

    /** Tells listeners the adapter's health changed; called outside any lock of the adapter's. */
    public void reportHealth(boolean healthy, String reason) {
        listeners.forEach(l -> l.onHealthChanged(healthy, reason));
    }

    /** Forgets deleted keys; only keys this tracker had counted are reported to listeners. */
    public void recordDeleted(List<ObjectKey> keys) {
        List<ObjectKey> known = new ArrayList<>(keys.size());
        synchronized (this) {
            for (ObjectKey key : keys) {
                Long size = sizes.remove(key);
                if (size != null) {
                    totalBytes -= size;
                    bytesBySalt.computeIfPresent(key.cacheSalt(), (salt, bytes) -> bytes - size > 0 ? bytes - size : null);
                    known.add(key);
                }
            }
        }
        if (!known.isEmpty()) {
            listeners.forEach(l -> l.onKeysDeleted(known));
        }
    }

    public synchronized AdapterUsage usage() {
        return new AdapterUsage(totalBytes, capacityBytes, bytesBySalt);
    }
}
