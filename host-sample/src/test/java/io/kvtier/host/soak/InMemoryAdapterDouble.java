package io.kvtier.host.soak;

import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyOutcome;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test double: an honest, unbounded L2 tier on the Java heap with the SPI's semantics (a store of a
 * key that exists keeps the first value). Subclasses misbehave on purpose through the hooks.
 */
class InMemoryAdapterDouble implements L2Adapter {
    protected final Map<ObjectKey, byte[]> objects = new ConcurrentHashMap<>();

    /** Whether to keep an object that the store will report OK. */
    protected boolean keep(ObjectKey key) {
        return true;
    }

    /** Called with the slice of every object loaded OK, before the load completes. */
    protected void loaded(ObjectKey key, ByteBuffer slice) {}

    /** A per-key error to answer instead of doing the operation, or null to do it. */
    protected KeyError failure(String operation, ObjectKey key) {
        return null;
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> slices) {
        return batch("store", keys, (i, key) -> {
            ByteBuffer source = slices.get(i).buffer().duplicate().clear();
            byte[] copy = new byte[source.remaining()];
            source.get(copy);
            if (keep(key)) {
                objects.putIfAbsent(key, copy);
            }
            return KeyResult.OK;
        });
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        return batch("lookup", keys, (i, key) -> objects.containsKey(key) ? KeyResult.OK : KeyResult.MISSING);
    }

    @Override
    public void unlock(List<ObjectKey> keys) {}

    @Override
    public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> slices) {
        return batch("load", keys, (i, key) -> {
            byte[] object = objects.get(key);
            if (object == null) {
                return KeyResult.MISSING;
            }
            ByteBuffer slice = slices.get(i).buffer().duplicate().clear();
            slice.put(object);
            loaded(key, slices.get(i).buffer());
            return KeyResult.OK;
        });
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        return batch("delete", keys, (i, key) -> objects.remove(key) != null ? KeyResult.OK : KeyResult.MISSING);
    }

    private interface PerKey {
        KeyResult apply(int index, ObjectKey key);
    }

    private CompletableFuture<BatchResult> batch(String operation, List<ObjectKey> keys, PerKey perKey) {
        List<KeyOutcome> outcomes = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            KeyError error = failure(operation, keys.get(i));
            if (error != null) {
                outcomes.add(KeyOutcome.error(error));
            } else {
                outcomes.add(perKey.apply(i, keys.get(i)) == KeyResult.OK ? KeyOutcome.ok() : KeyOutcome.missing());
            }
        }
        return CompletableFuture.completedFuture(new BatchResult(outcomes, 0));
    }

    @Override
    public AdapterUsage usage() {
        return new AdapterUsage(0, 0, Map.of());
    }

    @Override
    public Map<String, Object> status() {
        return Map.of("is_healthy", true, "type", "in_memory_double");
    }

    @Override
    public void addListener(L2AdapterListener listener) {}

    @Override
    public void close() {}
}
