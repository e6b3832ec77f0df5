package io.kvtier.host.memory;

import com.google.auto.service.AutoService;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.ConfigValues;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import java.util.Map;
import java.util.Set;

/** The built-in {@code memory} type: an in-process, bounded LRU tier. */
@AutoService(L2AdapterProvider.class)
public final class MemoryAdapterProvider implements L2AdapterProvider<MemoryAdapterProvider.Config> {
    static final long DEFAULT_CAPACITY = 1L << 30;
    private static final Set<String> KEYS = Set.of("type", "capacity");

    /** @param capacity the most bytes the tier holds before it evicts */
    public record Config(long capacity) {}

    @Override
    public String type() {
        return "memory";
    }

    @Override
    public Config parseConfig(Map<String, Object> body) {
        for (String key : body.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown key '" + key + "' (memory takes: capacity)");
            }
        }
        long capacity = body.containsKey("capacity") ? ConfigValues.bytes(body.get("capacity"), "capacity") : DEFAULT_CAPACITY;
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive, got " + ConfigValues.toJson(body.get("capacity")));
        }
        return new Config(capacity);
    }

    @Override
    public Map<String, Object> describe(Config config) {
        return Map.of("capacity", config.capacity());
    }

    @Override
    public L2Adapter create(Config config, AdapterContext context) {
        return new MemoryAdapter(context.instanceName(), config.capacity());
    }

    @Override
    public String help() {
        return "memory: an in-process tier bounded by 'capacity' (a byte size, default 1 GiB), "
                + "evicting the least recently used unlocked objects. Its contents end with the process.";
    }
}
