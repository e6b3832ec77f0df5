package io.kvtier.mooncake;

import io.kvtier.spi.ConfigValues;
import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splits a declaration body the way LMCache's {@code from_dict} does: the LMCache-only keys are
 * consumed here, replica counts become the write-time replicate config, and every other non-null
 * key is forwarded to Mooncake's {@code setup_internal} as a string. Messages keep LMCache's
 * wording and name the key and the value; the host prefixes the declaration's source.
 */
final class MooncakeStoreConfigParser {
    /** Consumed here, never forwarded (LMCache's {@code _LMCACHE_ONLY_KEYS}). */
    static final Set<String> LMCACHE_ONLY_KEYS = Set.of("type", "num_workers", "per_op_workers", "eviction");
    static final Set<String> REPLICA_KEYS = Set.of("replica_num", "nof_replica_num");
    /** Keys Mooncake would silently ignore, mapped to the key the user meant (design §7.8). */
    static final Map<String, String> MISSPELLINGS = Map.of(
            "master_server_address", "master_server_addr",
            "device_name", "rdma_devices");
    private static final Set<String> EVICTION_KEYS = Set.of("eviction_policy", "trigger_watermark", "eviction_ratio");

    private MooncakeStoreConfigParser() {}

    static MooncakeStoreConfig parse(Map<String, Object> body) {
        rejectMisspellings(body);
        int numWorkers = parseNumWorkers(body.containsKey("num_workers") ? body.get("num_workers") : MooncakeStoreConfig.DEFAULT_NUM_WORKERS);
        Map<Lane, Integer> perOpWorkers = parsePerOpWorkers(body.get("per_op_workers"));
        EvictionConfig eviction = parseEviction(body.get("eviction"));
        ReplicateConfig replicate = new ReplicateConfig(
                parseReplicaCount("replica_num", body.get("replica_num")),
                parseReplicaCount("nof_replica_num", body.get("nof_replica_num")));
        Map<String, String> setup = new LinkedHashMap<>();
        body.forEach((key, value) -> {
            if (!LMCACHE_ONLY_KEYS.contains(key) && !REPLICA_KEYS.contains(key) && value != null) {
                setup.put(key, toSetupString(key, value));
            }
        });
        return new MooncakeStoreConfig(setup, numWorkers, perOpWorkers, replicate, eviction);
    }

    private static void rejectMisspellings(Map<String, Object> body) {
        MISSPELLINGS.forEach((wrong, right) -> {
            if (body.containsKey(wrong)) {
                throw new IllegalArgumentException("unknown key '" + wrong + "' (got " + ConfigValues.toJson(body.get(wrong))
                        + "): Mooncake reads '" + right + "' and would silently ignore '" + wrong + "'; use " + right);
            }
        });
    }

    private static boolean isInteger(Object value) {
        return value instanceof Integer || value instanceof Long;
    }

    static int parseNumWorkers(Object raw) {
        if (!isInteger(raw) || ((Number) raw).longValue() <= 0) {
            throw new IllegalArgumentException("num_workers must be a positive integer, got " + ConfigValues.toJson(raw));
        }
        return clampToInt(((Number) raw).longValue());
    }

    /** Out-of-range counts become MAX_VALUE so that the config's own bound reports them. */
    private static int clampToInt(long n) {
        return (int) Math.min(n, Integer.MAX_VALUE);
    }

    /**
     * LMCache's three steps, in its order: every value an integer, then every value positive,
     * then (improvement, design §7.5) every key a known lane, instead of a native error later.
     */
    static Map<Lane, Integer> parsePerOpWorkers(Object raw) {
        Map<Lane, Integer> lanes = new EnumMap<>(Lane.class);
        if (raw == null) {
            return lanes;
        }
        if (!(raw instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("per_op_workers must be an object, got " + ConfigValues.jsonType(raw));
        }
        map.forEach((k, v) -> {
            if (!isInteger(v)) {
                throw new IllegalArgumentException(
                        "per_op_workers['" + k + "'] must be an integer, got " + ConfigValues.jsonType(v));
            }
        });
        map.forEach((k, v) -> {
            if (((Number) v).longValue() <= 0) {
                throw new IllegalArgumentException("per_op_workers['" + k + "'] must be a positive integer, got " + v);
            }
        });
        map.forEach((k, v) -> {
            Lane lane = Lane.fromKey(String.valueOf(k)).orElseThrow(() -> new IllegalArgumentException(
                    "unknown lane key in per_op_workers: '" + k + "' (valid: " + Lane.validKeys() + ")"));
            lanes.put(lane, clampToInt(((Number) v).longValue()));
        });
        return lanes;
    }

    static EvictionConfig parseEviction(Object raw) {
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("eviction must be an object, got " + ConfigValues.jsonType(raw)
                    + " " + ConfigValues.toJson(raw));
        }
        for (Object key : map.keySet()) {
            if (!EVICTION_KEYS.contains(String.valueOf(key))) {
                throw new IllegalArgumentException("unknown key in eviction: '" + key
                        + "' (valid: eviction_policy, trigger_watermark, eviction_ratio)");
            }
        }
        Object policy = map.get("eviction_policy");
        if (!(policy instanceof String)) {
            throw new IllegalArgumentException(EvictionConfig.policyError(ConfigValues.toJson(policy)));
        }
        return new EvictionConfig((String) policy,
                fraction(map, "trigger_watermark", EvictionConfig.DEFAULT_TRIGGER_WATERMARK),
                fraction(map, "eviction_ratio", EvictionConfig.DEFAULT_EVICTION_RATIO));
    }

    private static double fraction(Map<?, ?> eviction, String key, double dflt) {
        Object v = eviction.get(key);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Number)) {
            throw new IllegalArgumentException("eviction." + key + " must be a number, got " + ConfigValues.toJson(v));
        }
        return ((Number) v).doubleValue();
    }

    static int parseReplicaCount(String key, Object raw) {
        if (raw == null) {
            return ReplicateConfig.UNSET;
        }
        if (!isInteger(raw) || ((Number) raw).longValue() < 0 || ((Number) raw).longValue() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + " must be a non-negative integer, got " + ConfigValues.toJson(raw));
        }
        return ((Number) raw).intValue();
    }

    /** Python's {@code str(value)} for the scalar types a declaration can hold. */
    static String toSetupString(String key, Object value) {
        if (value instanceof String s) {
            return s;
        } else if (value instanceof Boolean b) {
            return b ? "True" : "False";
        } else if (isInteger(value)) {
            return value.toString();
        } else if (value instanceof Double d && Double.isFinite(d)) {
            return BigDecimal.valueOf(d).toPlainString();
        } else if (value instanceof Number) {
            return value.toString();
        } else if (value instanceof Map || value instanceof List) {
            throw new IllegalArgumentException(key + " must be a string, number or boolean, got " + ConfigValues.jsonType(value)
                    + " " + ConfigValues.toJson(value) + ": it would be forwarded to Mooncake's setup_internal,"
                    + " which takes only string values");
        }
        throw new IllegalArgumentException(key + " has an unsupported value type " + value.getClass().getName());
    }
}
