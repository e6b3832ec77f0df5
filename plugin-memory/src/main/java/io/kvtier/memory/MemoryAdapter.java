package io.kvtier.memory;

import com.codahale.metrics.Timer;
import com.kenai.jffi.MemoryIO;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.Health;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyPage;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.BatchOutcome;
import io.kvtier.toolkit.Batches;
import io.kvtier.toolkit.KeyLocks;
import io.kvtier.toolkit.UsageTracker;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * An in-process tier: objects are copied into off-heap memory that the adapter allocates and
 * frees itself, bounded by a capacity, evicting the least recently used object that is not locked
 * by a lookup. Operations complete before they return. Live objects and the pool's spare blocks
 * together stay within the capacity, and close() frees both.
 */
final class MemoryAdapter implements L2Adapter {
    private static final MemoryIO IO = MemoryIO.getInstance();

    /** An object's bytes: {@code length} bytes at {@code address}, owned by this adapter. */
    private record Block(long address, int length) {
        ByteBuffer buffer() {
            return IO.newDirectByteBuffer(address, length);
        }
    }

    private final String name;
    private final long capacity;
    private final UsageTracker usage;
    private final MemoryMetrics metrics;
    private final KeyLocks locks = new KeyLocks();
    private final BlockPool pool = new BlockPool();
    /** Access order, so iteration starts at the least recently used object. */
    private final LinkedHashMap<ObjectKey, Block> objects = new LinkedHashMap<>(16, 0.75f, true);
    /**
     * Loads copy out of blocks without holding the adapter's monitor, under the read side; a block
     * that was visible to loads is freed only under the write side, so no copy reads freed memory.
     */
    private final ReadWriteLock copying = new ReentrantReadWriteLock();
    private long bytes;
    private final Instant createdAt = Instant.now();
    /** Set before {@link #closed}. */
    private volatile Instant closedAt;
    private volatile boolean closed;

    MemoryAdapter(AdapterContext context, long capacity) {
        this.name = context.instanceName();
        this.capacity = capacity;
        this.usage = new UsageTracker(capacity);
        this.metrics = new MemoryMetrics(context, this::bytesUsed, capacity);
    }

    /** Batches complete before they return, so the call's time is the batch's. */
    private static CompletableFuture<BatchResult> timed(Timer timer, Supplier<CompletableFuture<BatchResult>> batch) {
        try (Timer.Context timing = timer.time()) {
            return batch.get();
        }
    }

    private synchronized long bytesUsed() {
        return bytes;
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> slices) {
        return timed(metrics.store, () -> storeBatch(keys, slices));
    }

    private CompletableFuture<BatchResult> storeBatch(List<ObjectKey> keys, List<L1Slice> slices) {
        Batches.requireSameSize(keys, slices);
        if (closed) {
            return closedFuture();
        }
        // Copy before taking the monitor, so that concurrent batches copy in parallel.
        List<Block> copies = new ArrayList<>(slices.size());
        for (L1Slice slice : slices) {
            copies.add(slice.length() <= capacity ? copy(slice) : null);
        }
        BatchOutcome outcome = new BatchOutcome(keys.size());
        List<Integer> storedAt = new ArrayList<>();
        List<ObjectKey> stored = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        List<ObjectKey> evictedKeys = new ArrayList<>();
        List<Block> evicted = new ArrayList<>();
        List<Block> unused = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                freeUnpublished(copies);
                return closedFuture();
            }
            for (int i = 0; i < keys.size(); i++) {
                Block copy = copies.get(i);
                // A key already there keeps its first value, and counts as stored (touching its recency).
                boolean present = objects.get(keys.get(i)) != null;
                KeyError error = present ? null : put(keys.get(i), slices.get(i).length(), copy, evictedKeys, evicted);
                if (error == null) {
                    storedAt.add(i);
                    stored.add(keys.get(i));
                    sizes.add((long) slices.get(i).length());
                } else {
                    outcome.error(i, error);
                }
                if (copy != null && (present || error != null)) {
                    unused.add(copy);
                }
            }
        }
        freeUnpublished(unused);
        free(evicted);
        metrics.evictions.inc(evicted.size());
        usage.recordDeleted(evictedKeys);
        long[] newBytesPerKey = usage.recordStoredPerKey(stored, sizes);
        long newBytes = 0;
        for (int k = 0; k < newBytesPerKey.length; k++) {
            outcome.ok(storedAt.get(k), newBytesPerKey[k]);
            newBytes += newBytesPerKey[k];
        }
        return CompletableFuture.completedFuture(outcome.build(newBytes));
    }

    /** @return the copy, or null when no memory could be had for it */
    private Block copy(L1Slice slice) {
        long address = pool.allocate(slice.length());
        if (address == 0) {
            return null;
        }
        Block block = new Block(address, slice.length());
        block.buffer().put(slice.buffer().duplicate().clear());
        return block;
    }

    /** Puts a key that is not there yet. @return null when stored, else why not */
    private KeyError put(ObjectKey key, long size, Block copy, List<ObjectKey> evictedKeys, List<Block> evicted) {
        if (size > capacity) {
            return KeyError.of(ErrorKind.PERMANENT, "object of " + size + " bytes exceeds the capacity of "
                    + capacity + " bytes");
        }
        if (copy == null) {
            return KeyError.of(ErrorKind.TRANSIENT, "cannot allocate " + size + " bytes of off-heap memory");
        }
        Iterator<Map.Entry<ObjectKey, Block>> lru = objects.entrySet().iterator();
        while (bytes + size > capacity && lru.hasNext()) {
            Map.Entry<ObjectKey, Block> victim = lru.next();
            if (!locks.isLocked(victim.getKey())) {
                bytes -= victim.getValue().length();
                evictedKeys.add(victim.getKey());
                evicted.add(victim.getValue());
                lru.remove();
            }
        }
        if (bytes + size > capacity) {
            return KeyError.of(ErrorKind.NO_CAPACITY, "capacity of " + capacity
                    + " bytes exhausted: every object in it is locked by a lookup");
        }
        objects.put(key, copy);
        bytes += size;
        return null;
    }

    /** Frees blocks that loads may have seen, once no load is copying. */
    private void free(List<Block> blocks) {
        if (blocks.isEmpty()) {
            return;
        }
        copying.writeLock().lock();
        try {
            freeUnpublished(blocks);
        } finally {
            copying.writeLock().unlock();
        }
    }

    /** Frees blocks that no load can have seen. */
    private void freeUnpublished(List<Block> blocks) {
        for (Block block : blocks) {
            if (block != null) {
                pool.release(block.address(), block.length(), room());
            }
        }
    }

    private synchronized long room() {
        return closed ? 0 : capacity - bytes;
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        return timed(metrics.lookup, () -> lookupBatch(keys));
    }

    private CompletableFuture<BatchResult> lookupBatch(List<ObjectKey> keys) {
        if (closed) {
            return closedFuture();
        }
        BatchOutcome outcome = new BatchOutcome(keys.size());
        synchronized (this) {
            for (int i = 0; i < keys.size(); i++) {
                if (objects.containsKey(keys.get(i))) {
                    locks.lock(keys.get(i));
                    outcome.ok(i);
                    metrics.hits.inc();
                } else {
                    outcome.missing(i);
                    metrics.misses.inc();
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
        return timed(metrics.load, () -> loadBatch(keys, slices));
    }

    private CompletableFuture<BatchResult> loadBatch(List<ObjectKey> keys, List<L1Slice> slices) {
        Batches.requireSameSize(keys, slices);
        BatchOutcome outcome = new BatchOutcome(keys.size());
        List<ObjectKey> accessed = new ArrayList<>();
        copying.readLock().lock();
        try {
            List<Block> found = new ArrayList<>(keys.size());
            synchronized (this) {
                if (closed) {
                    return closedFuture();
                }
                for (ObjectKey key : keys) {
                    found.add(objects.get(key));
                }
            }
            for (int i = 0; i < keys.size(); i++) {
                Block object = found.get(i);
                L1Slice slice = slices.get(i);
                if (object == null) {
                    outcome.missing(i);
                } else if (object.length() != slice.length()) {
                    outcome.error(i, KeyError.of(ErrorKind.PERMANENT, "object " + keys.get(i) + " has "
                            + object.length() + " bytes, the buffer " + slice.length()));
                } else {
                    slice.buffer().duplicate().clear().put(object.buffer());
                    outcome.ok(i, object.length());
                    accessed.add(keys.get(i));
                }
            }
        } finally {
            copying.readLock().unlock();
        }
        usage.recordAccessed(accessed);
        return CompletableFuture.completedFuture(outcome.build(0));
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        return timed(metrics.delete, () -> deleteBatch(keys));
    }

    private CompletableFuture<BatchResult> deleteBatch(List<ObjectKey> keys) {
        if (closed) {
            return closedFuture();
        }
        BatchOutcome outcome = new BatchOutcome(keys.size());
        List<ObjectKey> deleted = new ArrayList<>();
        List<Block> removedBlocks = new ArrayList<>();
        synchronized (this) {
            for (int i = 0; i < keys.size(); i++) {
                Block removed = objects.remove(keys.get(i));
                if (removed != null) {
                    bytes -= removed.length();
                    deleted.add(keys.get(i));
                    removedBlocks.add(removed);
                    outcome.ok(i);
                } else {
                    outcome.missing(i);
                }
            }
        }
        free(removedBlocks);
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
    public Health health() {
        return closed ? Health.unhealthy("closed", closedAt) : Health.healthy(createdAt);
    }

    @Override
    public boolean supportsKeyListing() {
        return true;
    }

    /** Pages in the order of the keys' wire form; the cursor is the last key of the page. */
    @Override
    public KeyPage listKeys(String model, int pageSize, String cursor) {
        if (pageSize <= 0) {
            throw new IllegalArgumentException("pageSize must be > 0: " + pageSize);
        }
        if (closed) {
            throw closedError();
        }
        TreeMap<String, ObjectKey> matching = new TreeMap<>();
        synchronized (this) {
            for (ObjectKey key : objects.keySet()) {
                if (model == null || model.equals(key.modelName())) {
                    matching.put(key.wireString(), key);
                }
            }
        }
        SortedMap<String, ObjectKey> rest = cursor == null ? matching : matching.tailMap(cursor, false);
        List<ObjectKey> page = rest.values().stream().limit(pageSize).toList();
        boolean more = rest.size() > page.size();
        return new KeyPage(page, more ? Optional.of(page.get(page.size() - 1).wireString()) : Optional.empty());
    }

    @Override
    public void addListener(L2AdapterListener listener) {
        usage.addListener(listener);
    }

    /** Frees every object; operations that race with it either finish first or fail as closed. */
    @Override
    public void close() {
        List<Block> all;
        boolean first;
        synchronized (this) {
            first = !closed;
            if (first) {
                closedAt = Instant.now();
            }
            closed = true;
            all = new ArrayList<>(objects.values());
            objects.clear();
            bytes = 0;
        }
        free(all);
        pool.clear();
        if (first) {
            // Only the first: by a second, another instance of this name may have taken the names.
            metrics.close();
        }
    }

    private <T> CompletableFuture<T> closedFuture() {
        return CompletableFuture.failedFuture(closedError());
    }

    private IllegalStateException closedError() {
        return new IllegalStateException("memory adapter '" + name + "' is closed");
    }
}
