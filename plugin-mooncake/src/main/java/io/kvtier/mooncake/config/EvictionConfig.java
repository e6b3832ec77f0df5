package io.kvtier.mooncake.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * LMCache's common {@code eviction} block. Mooncake evicts on its own and the adapter reports no
 * capacity, so nothing here drives eviction yet; it is parsed (and checked, by
 * {@link MooncakeStoreConfigParser}) so that a bad block is a config error at declaration time
 * instead of a surprise later, and shown by {@code kvtier validate}.
 */
public record EvictionConfig(String evictionPolicy, double triggerWatermark, double evictionRatio) {
    Map<String, Object> view() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("eviction_policy", evictionPolicy);
        view.put("trigger_watermark", triggerWatermark);
        view.put("eviction_ratio", evictionRatio);
        return view;
    }
}
