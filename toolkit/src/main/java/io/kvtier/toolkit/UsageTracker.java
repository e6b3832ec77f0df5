package io.kvtier.toolkit;

import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.Health;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Byte accounting per key and per cache salt, plus listener fan-out, shared by adapters.
 * Counters change under one lock; listeners are called after it is released so that a slow
 * or re-entrant listener cannot stall the adapter.
 *
 * <p>An adapter whose store evicts on its own, unseen, bounds the keys tracked
 * ({@link #UsageTracker(long, int)}): past the bound the key least recently stored or loaded is
 * forgotten, as the store most likely evicted it first, and so is a key that a lookup or load
 * found missing ({@link #recordMissing}). The heap then stays bounded however long the adapter
 * runs, and usage counts what the adapter stored among the keys it tracks.
 */
public final class UsageTracker {
    private final long capacityBytes;
    private final int maxTrackedKeys;
    /** In the order the keys were last stored or loaded, the least recent first. */
    private final LinkedHashMap<ObjectKey, Long> sizes = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, Long> bytesBySalt = new HashMap<>();
    private final List<L2AdapterListener> listeners = new CopyOnWriteArrayList<>();
    private long totalBytes;

    /** Tracks every key until it is deleted: for an adapter that evicts only through {@link #recordDeleted}. */
    public UsageTracker(long capacityBytes) {
        this(capacityBytes, Integer.MAX_VALUE);
    }

    /** Tracks the {@code maxTrackedKeys} keys most recently stored or loaded, and forgets the others. */
    public UsageTracker(long capacityBytes, int maxTrackedKeys) {
        if (maxTrackedKeys <= 0) {
            throw new IllegalArgumentException("maxTrackedKeys must be > 0, got " + maxTrackedKeys);
        }
        this.capacityBytes = capacityBytes;
        this.maxTrackedKeys = maxTrackedKeys;
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
            for (Iterator<Map.Entry<ObjectKey, Long>> eldest = sizes.entrySet().iterator(); sizes.size() > maxTrackedKeys; ) {
                Map.Entry<ObjectKey, Long> entry = eldest.next();
                eldest.remove();
                uncount(entry.getKey(), entry.getValue());
            }
        }
        if (!keys.isEmpty()) {
            List<Long> notified = Arrays.stream(added).boxed().toList();
            listeners.forEach(l -> l.onKeysStored(keys, notified));
        }
        return added;
    }

    public void recordAccessed(List<ObjectKey> keys) {
        synchronized (this) {
            keys.forEach(sizes::get); // now the most recent
        }
        if (!keys.isEmpty()) {
            listeners.forEach(l -> l.onKeysAccessed(keys));
        }
    }

    /**
     * Forgets keys that a lookup or load found missing, which the store evicted on its own.
     * Listeners hear nothing: nothing was deleted through the adapter.
     */
    public synchronized void recordMissing(List<ObjectKey> keys) {
        for (ObjectKey key : keys) {
            Long size = sizes.remove(key);
            if (size != null) {
                uncount(key, size);
            }
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
                    uncount(key, size);
                    known.add(key);
                }
            }
        }
        if (!known.isEmpty()) {
            listeners.forEach(l -> l.onKeysDeleted(known));
        }
    }

    private void uncount(ObjectKey key, long size) {
        totalBytes -= size;
        bytesBySalt.computeIfPresent(key.cacheSalt(), (salt, bytes) -> bytes - size > 0 ? bytes - size : null);
    }

    /** The keys tracked now: at most the bound given. */
    public synchronized int trackedKeys() {
        return sizes.size();
    }

    public synchronized AdapterUsage usage() {
        return new AdapterUsage(totalBytes, capacityBytes, bytesBySalt);
    }
}
