package com.example.kvtier.heap;

import com.google.auto.service.AutoService;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.util.Map;
import java.util.Set;

/** The {@code sample_heap} type. Its options: {@code kvtier/adapters/sample_heap/reference.conf}. */
@AutoService(L2AdapterProvider.class)
public final class HeapStoreProvider implements L2AdapterProvider<HeapStoreProvider.Config> {
    private static final Set<String> KEYS = Set.of("type", "max_objects");

    /** @param maxObjects the most objects the tier holds */
    public record Config(int maxObjects) {}

    @Override
    public String type() {
        return "sample_heap";
    }

    @Override
    public int spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public Config parseConfig(AdapterSettings settings) {
        for (String key : settings.keys()) {
            if (!KEYS.contains(key)) {
                throw settings.error(key, "unknown key '" + key + "' (sample_heap takes: max_objects)");
            }
        }
        if (!(settings.get("max_objects") instanceof Integer maxObjects) || maxObjects < 1) {
            throw settings.error("max_objects", "max_objects must be an integer from 1 to 2147483647, got "
                    + settings.get("max_objects"));
        }
        return new Config(maxObjects);
    }

    @Override
    public Map<String, Object> describe(Config config) {
        return Map.of("max_objects", config.maxObjects());
    }

    @Override
    public L2Adapter create(Config config, AdapterContext context) {
        return new HeapStore(context.instanceName(), config.maxObjects());
    }
}
