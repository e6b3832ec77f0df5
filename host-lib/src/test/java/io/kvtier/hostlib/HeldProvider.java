package io.kvtier.hostlib;

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
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@code held} type for the tests of the running instances: its batches stay pending until the
 * test completes them, and it records the thread's context class loader at every call into it.
 */
final class HeldProvider implements L2AdapterProvider<Object> {
    /** The adapters created, in order. */
    final List<HeldAdapter> created = new CopyOnWriteArrayList<>();
    final List<ClassLoader> contextLoaders = new CopyOnWriteArrayList<>();

    @Override
    public String type() {
        contextLoaders.add(Thread.currentThread().getContextClassLoader());
        return "held";
    }

    @Override
    public int spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public Object parseConfig(AdapterSettings settings) {
        contextLoaders.add(Thread.currentThread().getContextClassLoader());
        return settings;
    }

    @Override
    public Map<String, Object> describe(Object config) {
        contextLoaders.add(Thread.currentThread().getContextClassLoader());
        return Map.of();
    }

    @Override
    public L2Adapter create(Object config, AdapterContext context) {
        contextLoaders.add(Thread.currentThread().getContextClassLoader());
        HeldAdapter adapter = new HeldAdapter();
        created.add(adapter);
        return adapter;
    }

    final class HeldAdapter implements L2Adapter {
        /** Every batch's future, in the order they were issued. */
        final List<CompletableFuture<BatchResult>> batches = new CopyOnWriteArrayList<>();
        /** "completed" for every batch completed by the test, then "closed". */
        final List<String> events = new CopyOnWriteArrayList<>();

        private CompletableFuture<BatchResult> held() {
            contextLoaders.add(Thread.currentThread().getContextClassLoader());
            CompletableFuture<BatchResult> future = new CompletableFuture<>();
            batches.add(future);
            return future;
        }

        void completeAll() {
            for (CompletableFuture<BatchResult> batch : batches) {
                events.add("completed");
                batch.complete(BatchResult.empty());
            }
        }

        @Override
        public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) {
            return held();
        }

        @Override
        public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
            return held();
        }

        @Override
        public void unlock(List<ObjectKey> keys) {}

        @Override
        public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) {
            return held();
        }

        @Override
        public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
            return held();
        }

        @Override
        public AdapterUsage usage() {
            contextLoaders.add(Thread.currentThread().getContextClassLoader());
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
            contextLoaders.add(Thread.currentThread().getContextClassLoader());
            events.add("closed");
        }
    }
}
