package io.kvtier.memory;

import com.google.auto.service.AutoService;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.util.Map;
import java.util.Set;

/** The built-in {@code memory} type: an in-process, bounded LRU tier. Its options: {@code kvtier/adapters/memory/reference.conf}. */
@AutoService(L2AdapterProvider.class)
public final class MemoryAdapterProvider implements L2AdapterProvider<MemoryAdapterProvider.Config> {
    private static final Set<String> KEYS = Set.of("type", "capacity");

    /** @param capacity the most bytes the tier holds before it evicts */
    public record Config(long capacity) {}

    @Override
    public String type() {
        return "memory";
    }

    @Override
    public int spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public Config parseConfig(AdapterSettings settings) {
        for (String key : settings.keys()) {
            if (!KEYS.contains(key)) {
                throw settings.error(key, "unknown key '" + key + "' (memory takes: capacity)");
            }
        }
        long capacity = settings.getBytes("capacity");
        if (capacity <= 0) {
            throw settings.error("capacity", "capacity must be positive, got " + capacity);
        }
        return new Config(capacity);
    }

    @Override
    public Map<String, Object> describe(Config config) {
        return Map.of("capacity", config.capacity());
    }

    @Override
    public L2Adapter create(Config config, AdapterContext context) {
        return new MemoryAdapter(context, config.capacity());
    }
}
