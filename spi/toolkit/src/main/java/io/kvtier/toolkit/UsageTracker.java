package io.kvtier.toolkit;

import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.Health;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
        long added = 0;
        for (long bytes : recordStoredPerKey(keys, objectSizes)) {
            added += bytes;
        }
        return added;
    }

    /**
     * Records stored keys like {@link #recordStored}.
     *
     * @return per key, its bytes when it was new, else 0
     */
    public long[] recordStoredPerKey(List<ObjectKey> keys, List<Long> objectSizes) {
        long[] added = new long[keys.size()];
        synchronized (this) {
            for (int i = 0; i < keys.size(); i++) {
                ObjectKey key = keys.get(i);
                long size = objectSizes.get(i);
                if (sizes.putIfAbsent(key, size) == null) {
                    totalBytes += size;
                    bytesBySalt.merge(key.cacheSalt(), size, Long::sum);
                    added[i] = size;
                }
            }
        }
        if (!keys.isEmpty()) {
            List<Long> notified = Arrays.stream(added).boxed().toList();
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
    public void reportHealth(Health health) {
        listeners.forEach(l -> l.onHealthChanged(health));
    }

    /** @deprecated use {@link #reportHealth(Health)}, which tells since when and which parts */
    @Deprecated
    public void reportHealth(boolean healthy, String reason) {
        reportHealth(new Health(healthy, reason, Optional.empty(), Map.of()));
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
