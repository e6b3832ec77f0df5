package io.kvtier.hostlib;

import com.google.auto.service.AutoService;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.util.Map;

/** A provider that fails to load, to show that it does not hide the others. */
@AutoService(L2AdapterProvider.class)
public final class BrokenProvider implements L2AdapterProvider<Object> {
    public BrokenProvider() {
        throw new IllegalStateException("broken on purpose");
    }

    @Override
    public String type() {
        return "broken";
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
        throw new UnsupportedOperationException();
    }

}
