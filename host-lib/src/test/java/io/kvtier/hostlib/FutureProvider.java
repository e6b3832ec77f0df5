package io.kvtier.hostlib;

import com.google.auto.service.AutoService;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.util.Map;

/** A provider that claims to be built for a contract newer than this host's. */
@AutoService(L2AdapterProvider.class)
public final class FutureProvider implements L2AdapterProvider<Object> {
    @Override
    public String type() {
        return "future";
    }

    @Override
    public int spiVersion() {
        return SpiVersion.CURRENT + 1;
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
