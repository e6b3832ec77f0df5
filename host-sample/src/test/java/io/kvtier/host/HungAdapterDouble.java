package io.kvtier.host;

import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.ObjectKey;
import io.kvtier.spi.SpiVersion;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Test double of a hung store: no batch ever completes, until close() fails them all. */
public final class HungAdapterDouble implements L2Adapter {
    /** The {@code hung} type, for declaring the double. */
    public static final class Provider implements L2AdapterProvider<Object> {
        @Override
        public String type() {
            return "hung";
        }

        @Override
        public int spiVersion() {
            return SpiVersion.CURRENT;
        }

        @Override
        public Object parseConfig(AdapterSettings settings) {
            return settings;
        }

        @Override
        public Map<String, Object> describe(Object config) {
            return Map.of();
        }

        @Override
        public L2Adapter create(Object config, AdapterContext context) {
            return new HungAdapterDouble();
        }
    }

    private final List<CompletableFuture<BatchResult>> pending = new java.util.concurrent.CopyOnWriteArrayList<>();

    private CompletableFuture<BatchResult> never() {
        CompletableFuture<BatchResult> future = new CompletableFuture<>();
        pending.add(future);
        return future;
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) {
        return never();
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        return never();
    }

    @Override
    public void unlock(List<ObjectKey> keys) {}

    @Override
    public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) {
        return never();
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        return never();
    }

    @Override
    public AdapterUsage usage() {
        return new AdapterUsage(0, 0, Map.of());
    }

    @Override
    public Map<String, Object> status() {
        return Map.of("is_healthy", true);
    }

    @Override
    public void addListener(L2AdapterListener listener) {}

    @Override
    public void close() {
        pending.forEach(f -> f.completeExceptionally(new IllegalStateException("closed")));
    }
}
