package com.example.kvtier.heap;

import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.Health;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.BatchOutcome;
import io.kvtier.toolkit.Batches;
import io.kvtier.toolkit.KeyLocks;
import io.kvtier.toolkit.UsageTracker;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A tier on the Java heap of at most {@code maxObjects} objects, without eviction. Every batch
 * runs on the caller's thread under the adapter's monitor and returns a completed future, so
 * close() has nothing in flight to wait for.
 */
final class HeapStore implements L2Adapter {
    private final String name;
    private final int maxObjects;
    private final Map<ObjectKey, byte[]> objects = new HashMap<>();
    private final UsageTracker usage = new UsageTracker(0);
    private final KeyLocks locks = new KeyLocks();
    private final Instant createdAt = Instant.now();
    private Instant closedAt;

    HeapStore(String name, int maxObjects) {
        this.name = name;
        this.maxObjects = maxObjects;
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> slices) {
        Batches.requireSameSize(keys, slices);
        BatchOutcome outcome = new BatchOutcome(keys.size());
        List<Integer> storedAt = new ArrayList<>();
        List<ObjectKey> stored = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        synchronized (this) {
            if (closedAt != null) {
                return closed();
            }
            for (int i = 0; i < keys.size(); i++) {
                ObjectKey key = keys.get(i);
                if (!objects.containsKey(key)) {
                    if (objects.size() >= maxObjects) {
                        outcome.error(i, KeyError.of(ErrorKind.NO_CAPACITY, "sample_heap '" + name + "' holds "
                                + maxObjects + " objects, its max_objects: " + key + " not stored"));
                        continue;
                    }
                    objects.put(key, copyOf(slices.get(i)));
                }
                // A key stored before keeps its first value and still counts as stored.
                storedAt.add(i);
                stored.add(key);
                sizes.add((long) slices.get(i).length());
            }
        }
        // The tracker tells listeners outside the monitor, before the future completes, and
        // counts each key's bytes on its first store only.
        long[] newBytes = usage.recordStoredPerKey(stored, sizes);
        long total = 0;
        for (int k = 0; k < newBytes.length; k++) {
            outcome.ok(storedAt.get(k), newBytes[k]);
            total += newBytes[k];
        }
        return CompletableFuture.completedFuture(outcome.build(total));
    }

    private static byte[] copyOf(L1Slice slice) {
        byte[] copy = new byte[slice.length()];
        slice.buffer().get(0, copy);
        return copy;
    }

    @Override
    public synchronized CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        if (closedAt != null) {
            return closed();
        }
        BatchOutcome outcome = new BatchOutcome(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            if (objects.containsKey(keys.get(i))) {
                // Without eviction a lock protects nothing here; it is kept for unlock's sake.
                locks.lock(keys.get(i));
                outcome.ok(i);
            } else {
                outcome.missing(i);
            }
        }
        return CompletableFuture.completedFuture(outcome.build(0));
    }

    @Override
    public void unlock(List<ObjectKey> keys) {
        locks.unlock(keys);
    }

    @Override
    public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> slices) {
        Batches.requireSameSize(keys, slices);
        BatchOutcome outcome = new BatchOutcome(keys.size());
        List<ObjectKey> loaded = new ArrayList<>();
        synchronized (this) {
            if (closedAt != null) {
                return closed();
            }
            for (int i = 0; i < keys.size(); i++) {
                byte[] object = objects.get(keys.get(i));
                L1Slice slice = slices.get(i);
                if (object == null) {
                    outcome.missing(i);
                } else if (object.length != slice.length()) {
                    outcome.error(i, KeyError.of(ErrorKind.PERMANENT, "object " + keys.get(i) + " has "
                            + object.length + " bytes, the slice " + slice.length()));
                } else {
                    slice.buffer().put(0, object);
                    outcome.ok(i, object.length);
                    loaded.add(keys.get(i));
                }
            }
        }
        usage.recordAccessed(loaded);
        return CompletableFuture.completedFuture(outcome.build(0));
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        BatchOutcome outcome = new BatchOutcome(keys.size());
        List<ObjectKey> deleted = new ArrayList<>();
        synchronized (this) {
            if (closedAt != null) {
                return closed();
            }
            for (int i = 0; i < keys.size(); i++) {
                if (objects.remove(keys.get(i)) != null) {
                    outcome.ok(i);
                    deleted.add(keys.get(i));
                } else {
                    outcome.missing(i);
                }
            }
        }
        usage.recordDeleted(deleted);
        return CompletableFuture.completedFuture(outcome.build(0));
    }

    @Override
    public AdapterUsage usage() {
        return usage.usage();
    }

    @Override
    public synchronized Map<String, Object> status() {
        return Map.of("is_healthy", closedAt == null, "type", "sample_heap", "objects", objects.size());
    }

    @Override
    public synchronized Health health() {
        return closedAt != null ? Health.unhealthy("closed", closedAt) : Health.healthy(createdAt);
    }

    @Override
    public void addListener(L2AdapterListener listener) {
        usage.addListener(listener);
    }

    @Override
    public synchronized void close() {
        if (closedAt == null) {
            closedAt = Instant.now();
            objects.clear();
        }
    }

    private <T> CompletableFuture<T> closed() {
        return CompletableFuture.failedFuture(new IllegalStateException("sample_heap adapter '" + name + "' is closed"));
    }
}
