package io.kvtier.host.soak;

import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.Health;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyOutcome;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.Batches;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test double: an honest, unbounded L2 tier on the Java heap that keeps the L2Adapter contract
 * (InMemoryAdapterDoubleContractTest holds it to the kit). Subclasses misbehave on purpose through the
 * hooks, and so break the promises that MisbehavingDoublesContractTest names.
 */
public class InMemoryAdapterDouble implements L2Adapter {
    protected final Map<ObjectKey, byte[]> objects = new ConcurrentHashMap<>();
    private final List<L2AdapterListener> listeners = new CopyOnWriteArrayList<>();
    private volatile Instant closedAt;

    /** Whether to keep an object that the store will report OK. */
    protected boolean keep(ObjectKey key) {
        return true;
    }

    /** Whether lookups and loads see an object it holds; one they do not see is missing to them, and stays. */
    protected boolean visible(byte[] object) {
        return true;
    }

    /** Called with the slice of every object loaded OK, before the load completes. */
    protected void loaded(ObjectKey key, ByteBuffer slice) {}

    /** Called on the caller's thread as each batch starts, before any of its keys. */
    protected void batchStarting() {}

    /** A per-key error to answer instead of doing the operation, or null to do it. */
    protected KeyError failure(String operation, ObjectKey key) {
        return null;
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> slices) {
        Batches.requireSameSize(keys, slices);
        List<ObjectKey> stored = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        CompletableFuture<BatchResult> result = batch("store", keys, (i, key) -> {
            ByteBuffer source = slices.get(i).buffer().duplicate().clear();
            byte[] copy = new byte[source.remaining()];
            source.get(copy);
            // A key that exists keeps its first value, and its bytes are counted once.
            boolean first = keep(key) ? objects.putIfAbsent(key, copy) == null : !objects.containsKey(key);
            stored.add(key);
            sizes.add(first ? (long) copy.length : 0L);
            return KeyOutcome.ok(first ? copy.length : 0);
        });
        if (!stored.isEmpty()) {
            listeners.forEach(listener -> listener.onKeysStored(stored, sizes));
        }
        return result;
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        return batch("lookup", keys, (i, key) -> {
            byte[] object = objects.get(key);
            return object != null && visible(object) ? KeyOutcome.ok() : KeyOutcome.missing();
        });
    }

    @Override
    public void unlock(List<ObjectKey> keys) {}

    @Override
    public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> slices) {
        Batches.requireSameSize(keys, slices);
        List<ObjectKey> accessed = new ArrayList<>();
        CompletableFuture<BatchResult> result = batch("load", keys, (i, key) -> {
            byte[] object = objects.get(key);
            if (object == null || !visible(object)) {
                return KeyOutcome.missing();
            }
            ByteBuffer slice = slices.get(i).buffer().duplicate().clear();
            if (slice.remaining() != object.length) {
                return KeyOutcome.error(KeyError.of(ErrorKind.PERMANENT, "object " + key + " has " + object.length
                        + " bytes, the slice " + slice.remaining()));
            }
            slice.put(object);
            loaded(key, slices.get(i).buffer());
            accessed.add(key);
            return KeyOutcome.ok(object.length);
        });
        if (!accessed.isEmpty()) {
            listeners.forEach(listener -> listener.onKeysAccessed(accessed));
        }
        return result;
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        List<ObjectKey> deleted = new ArrayList<>();
        CompletableFuture<BatchResult> result = batch("delete", keys, (i, key) -> {
            if (objects.remove(key) == null) {
                return KeyOutcome.missing();
            }
            deleted.add(key);
            return KeyOutcome.ok();
        });
        if (!deleted.isEmpty()) {
            listeners.forEach(listener -> listener.onKeysDeleted(deleted));
        }
        return result;
    }

    private interface PerKey {
        KeyOutcome apply(int index, ObjectKey key);
    }

    private CompletableFuture<BatchResult> batch(String operation, List<ObjectKey> keys, PerKey perKey) {
        if (closedAt != null) {
            return CompletableFuture.failedFuture(new IllegalStateException("in-memory double is closed"));
        }
        batchStarting();
        List<KeyOutcome> outcomes = new ArrayList<>(keys.size());
        long newBytes = 0;
        for (int i = 0; i < keys.size(); i++) {
            KeyError error = failure(operation, keys.get(i));
            KeyOutcome outcome = error != null ? KeyOutcome.error(error) : perKey.apply(i, keys.get(i));
            outcomes.add(outcome);
            newBytes += operation.equals("store") ? outcome.bytes() : 0;
        }
        return CompletableFuture.completedFuture(new BatchResult(outcomes, newBytes));
    }

    @Override
    public AdapterUsage usage() {
        return new AdapterUsage(0, 0, Map.of());
    }

    @Override
    public Map<String, Object> status() {
        return Map.of("is_healthy", closedAt == null, "type", "in_memory_double");
    }

    /** Unhealthy once closed; until then what {@link #status()} says. */
    @Override
    public Health health() {
        Instant closed = closedAt;
        return closed != null ? Health.unhealthy("closed", closed) : L2Adapter.super.health();
    }

    @Override
    public void addListener(L2AdapterListener listener) {
        listeners.add(listener);
    }

    @Override
    public synchronized void close() {
        if (closedAt == null) {
            closedAt = Instant.now();
            objects.clear();
        }
    }
}
