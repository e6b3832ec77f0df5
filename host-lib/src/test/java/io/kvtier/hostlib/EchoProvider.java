package io.kvtier.hostlib;

import com.google.auto.service.AutoService;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.SpiVersion;
import java.util.Map;

/** A provider registered through AutoService for the discovery tests; it only parses. */
@AutoService(L2AdapterProvider.class)
public final class EchoProvider implements L2AdapterProvider<Long> {
    @Override
    public String type() {
        return "echo";
    }

    @Override
    public int spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public Long parseConfig(AdapterSettings settings) {
        if (settings.get("fail") != null) {
            throw new NumberFormatException("For input string: \"x\"");
        }
        return settings.getBytes("size");
    }

    @Override
    public Map<String, Object> describe(Long size) {
        return Map.of("size", size);
    }

    @Override
    public L2Adapter create(Long config, AdapterContext context) {
        throw new UnsupportedOperationException("echo adapters only parse");
    }

}
