package io.kvtier.mooncake;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * LMCache's common {@code eviction} block. Mooncake evicts on its own and the adapter reports no
 * capacity, so nothing here drives eviction yet; it is parsed so that a bad block is a config
 * error at declaration time instead of a surprise later, and shown by {@code kvtier validate}.
 */
public record EvictionConfig(String evictionPolicy, double triggerWatermark, double evictionRatio) {
    static final Set<String> POLICIES = Set.of("LRU", "IsolatedLRU", "noop");

    public EvictionConfig {
        if (!POLICIES.contains(evictionPolicy)) {
            throw new IllegalArgumentException(policyError(evictionPolicy == null ? "null" : "'" + evictionPolicy + "'"));
        }
        requireFraction("eviction.trigger_watermark", triggerWatermark);
        requireFraction("eviction.eviction_ratio", evictionRatio);
    }

    static String policyError(String renderedValue) {
        return "eviction.eviction_policy must be 'LRU', 'IsolatedLRU', or 'noop', got " + renderedValue;
    }

    private static void requireFraction(String key, double value) {
        if (!(value > 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(key + " must be a number in (0, 1], got " + value);
        }
    }

    Map<String, Object> view() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("eviction_policy", evictionPolicy);
        view.put("trigger_watermark", triggerWatermark);
        view.put("eviction_ratio", evictionRatio);
        return view;
    }
}
