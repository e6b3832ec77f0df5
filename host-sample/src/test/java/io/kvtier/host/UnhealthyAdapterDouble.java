package io.kvtier.host;

import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.Health;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.ObjectKey;
import io.kvtier.spi.SpiVersion;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Test double of a store that cannot be reached: unhealthy from the start, every batch refused. */
public final class UnhealthyAdapterDouble implements L2Adapter {
    static final String REASON = "master 127.0.0.1:1 does not answer";
    static final Instant SINCE = Instant.parse("2026-01-02T03:04:05Z");

    /** The {@code unhealthy} type; put it in a plugins directory with {@link PluginDirs}. */
    public static final class Provider implements L2AdapterProvider<Object> {
        @Override
        public String type() {
            return "unhealthy";
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
            return new UnhealthyAdapterDouble();
        }
    }

    private static CompletableFuture<BatchResult> refused() {
        return CompletableFuture.failedFuture(new IllegalStateException("unhealthy: " + REASON));
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) {
        return refused();
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        return refused();
    }

    @Override
    public void unlock(List<ObjectKey> keys) {}

    @Override
    public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) {
        return refused();
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        return refused();
    }

    @Override
    public AdapterUsage usage() {
        return new AdapterUsage(0, 0, Map.of());
    }

    @Override
    public Map<String, Object> status() {
        return Map.of("is_healthy", false, "type", "unhealthy", "unhealthy_reason", REASON);
    }

    @Override
    public Health health() {
        return Health.unhealthy(REASON, SINCE).withUnhealthyParts(Map.of("master", REASON));
    }

    @Override
    public void addListener(L2AdapterListener listener) {}

    @Override
    public void close() {}
}
