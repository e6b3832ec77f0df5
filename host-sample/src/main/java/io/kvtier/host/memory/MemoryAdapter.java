package io.kvtier.host.memory;

import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.BatchOutcome;
import io.kvtier.toolkit.KeyLocks;
import io.kvtier.toolkit.UsageTracker;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * An in-process tier: objects are copied to the heap, bounded by a capacity, evicting the least
 * recently used object that is not locked by a lookup. Operations complete before they return.
 */
final class MemoryAdapter implements L2Adapter {
    private final String name;
    private final long capacity;
    private final UsageTracker usage;
    private final KeyLocks locks = new KeyLocks();
    /** Access order, so iteration starts at the least recently used object. */
    private final LinkedHashMap<ObjectKey, byte[]> objects = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;
    private volatile boolean closed;

    MemoryAdapter(String name, long capacity) {
        this.name = name;
        this.capacity = capacity;
        this.usage = new UsageTracker(capacity);
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> slices) {
        L2Adapter.requireSameSize(keys, slices);
        if (closed) {
            return closedFuture();
        }
        // Copy before taking the lock, so that concurrent batches copy in parallel.
        List<byte[]> copies = new ArrayList<>(slices.size());
        for (L1Slice slice : slices) {
            copies.add(slice.length() <= capacity ? copy(slice) : null);
        }
        BatchOutcome outcome = new BatchOutcome(keys.size());
        List<ObjectKey> stored = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        List<ObjectKey> evicted = new ArrayList<>();
        synchronized (this) {
            for (int i = 0; i < keys.size(); i++) {
                String error = put(keys.get(i), slices.get(i).length(), copies.get(i), evicted);
                if (error == null) {
                    outcome.ok(i);
                    stored.add(keys.get(i));
                    sizes.add((long) slices.get(i).length());
                } else {
                    outcome.error(i, error);
                }
            }
        }
        usage.recordDeleted(evicted);
        long newBytes = usage.recordStored(stored, sizes);
        return CompletableFuture.completedFuture(outcome.build(newBytes));
    }

    private static byte[] copy(L1Slice slice) {
        byte[] copy = new byte[slice.length()];
        slice.buffer().duplicate().clear().get(copy);
        return copy;
    }

    /** @return null when stored (or already there), else why not */
    private String put(ObjectKey key, long size, byte[] copy, List<ObjectKey> evicted) {
        if (objects.get(key) != null) {
            return null;
        }
        if (copy == null) {
            return "object of " + size + " bytes exceeds the capacity of " + capacity + " bytes";
        }
        Iterator<Map.Entry<ObjectKey, byte[]>> lru = objects.entrySet().iterator();
        while (bytes + size > capacity && lru.hasNext()) {
            Map.Entry<ObjectKey, byte[]> victim = lru.next();
            if (!locks.isLocked(victim.getKey())) {
                bytes -= victim.getValue().length;
                evicted.add(victim.getKey());
                lru.remove();
            }
        }
        if (bytes + size > capacity) {
            return "capacity exhausted: every object is locked";
        }
        objects.put(key, copy);
        bytes += size;
        return null;
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        if (closed) {
            return closedFuture();
        }
        BatchOutcome outcome = new BatchOutcome(keys.size());
        synchronized (this) {
            for (int i = 0; i < keys.size(); i++) {
                if (objects.containsKey(keys.get(i))) {
                    locks.lock(keys.get(i));
                    outcome.ok(i);
                } else {
                    outcome.missing(i);
                }
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
        L2Adapter.requireSameSize(keys, slices);
        if (closed) {
            return closedFuture();
        }
        List<byte[]> found = new ArrayList<>(keys.size());
        synchronized (this) {
            for (ObjectKey key : keys) {
                found.add(objects.get(key));
            }
        }
        // Stored arrays are never written again, so they are copied out without the lock.
        BatchOutcome outcome = new BatchOutcome(keys.size());
        List<ObjectKey> accessed = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            byte[] object = found.get(i);
            L1Slice slice = slices.get(i);
            if (object == null) {
                outcome.missing(i);
            } else if (object.length != slice.length()) {
                outcome.error(i, "object " + keys.get(i) + " has " + object.length + " bytes, the buffer " + slice.length());
            } else {
                slice.buffer().duplicate().clear().put(object);
                outcome.ok(i);
                accessed.add(keys.get(i));
            }
        }
        usage.recordAccessed(accessed);
        return CompletableFuture.completedFuture(outcome.build(0));
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        if (closed) {
            return closedFuture();
        }
        BatchOutcome outcome = new BatchOutcome(keys.size());
        List<ObjectKey> deleted = new ArrayList<>();
        synchronized (this) {
            for (int i = 0; i < keys.size(); i++) {
                byte[] removed = objects.remove(keys.get(i));
                if (removed != null) {
                    bytes -= removed.length;
                    deleted.add(keys.get(i));
                    outcome.ok(i);
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
        return Map.of("is_healthy", !closed, "type", "memory", "objects", objects.size());
    }

    @Override
    public void addListener(L2AdapterListener listener) {
        usage.addListener(listener);
    }

    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            objects.clear();
            bytes = 0;
        }
    }

    private <T> CompletableFuture<T> closedFuture() {
        return CompletableFuture.failedFuture(new IllegalStateException("memory adapter '" + name + "' is closed"));
    }
}
