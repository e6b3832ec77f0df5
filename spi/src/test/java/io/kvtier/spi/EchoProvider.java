package io.kvtier.spi;

import com.google.auto.service.AutoService;
import java.util.Map;

/** A provider registered through AutoService for the discovery tests; it only parses. */
@AutoService(L2AdapterProvider.class)
public final class EchoProvider implements L2AdapterProvider<Long> {
    @Override
    public String type() {
        return "echo";
    }

    @Override
    public Long parseConfig(Map<String, Object> body) {
        return ConfigValues.bytes(body.getOrDefault("size", 1), "size");
    }

    @Override
    public Map<String, Object> describe(Long size) {
        return Map.of("size", size);
    }

    @Override
    public L2Adapter create(Long config, AdapterContext context) {
        throw new UnsupportedOperationException("echo adapters only parse");
    }

    @Override
    public String help() {
        return "size: a byte size";
    }
}
