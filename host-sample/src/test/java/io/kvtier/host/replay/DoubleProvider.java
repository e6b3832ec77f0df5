package io.kvtier.host.replay;

import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.util.Map;

/** Declares one given adapter (a test double) as the type {@code type}. */
record DoubleProvider(String type, L2Adapter adapter) implements L2AdapterProvider<Object> {
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
        return adapter;
    }
}
