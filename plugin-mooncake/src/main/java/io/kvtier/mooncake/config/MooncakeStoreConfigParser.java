package io.kvtier.mooncake.config;

import static io.kvtier.mooncake.config.MooncakeOption.BATCH_TIMEOUT_MS;
import static io.kvtier.mooncake.config.MooncakeOption.EVICTION;
import static io.kvtier.mooncake.config.MooncakeOption.LOOKUP_ON_CALLER_THREAD;
import static io.kvtier.mooncake.config.MooncakeOption.MAX_ABANDONED_CALLS;
import static io.kvtier.mooncake.config.MooncakeOption.NATIVE_CLIENTS;
import static io.kvtier.mooncake.config.MooncakeOption.NOF_REPLICA_NUM;
import static io.kvtier.mooncake.config.MooncakeOption.NUM_WORKERS;
import static io.kvtier.mooncake.config.MooncakeOption.PER_OP_WORKERS;
import static io.kvtier.mooncake.config.MooncakeOption.REPLICA_NUM;
import static io.kvtier.mooncake.config.MooncakeOption.RPC_TIMEOUT_MS;
import static io.kvtier.mooncake.config.MooncakeOption.SUSPECT_AFTER_MS;
import static io.kvtier.mooncake.config.MooncakeOption.UNCHECKED_OBJECTS;

import io.kvtier.mooncake.deadline.BatchBounds;
import io.kvtier.mooncake.lanes.Lane;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.ConfigurationException;
import io.kvtier.toolkit.Json;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Reads a declaration over the defaults of {@code kvtier/adapters/mooncake_store/reference.conf}, and
 * splits it the way LMCache's {@code from_dict} does: every {@link MooncakeOption} is read and
 * checked here, the only place any value is checked, replica counts become the write-time
 * replicate config, and every other non-null key is forwarded to Mooncake's {@code setup_internal}
 * as a string. Messages keep LMCache's wording and name the key and the value;
 * {@link AdapterSettings#error} places them at the key.
 */
final class MooncakeStoreConfigParser {
    /** A guard against a typo creating thousands of threads. */
    private static final int MAX_WORKERS = 1024;
    /** KVT_MAX_NATIVE_CLIENTS of the connector's ABI. */
    private static final int MAX_NATIVE_CLIENTS = 64;
    /** The declaration's type, which the host reads; never forwarded. */
    private static final String TYPE_KEY = "type";
    /** Keys Mooncake would silently ignore, mapped to the key the user meant. */
    static final Map<String, String> MISSPELLINGS = Map.of(
            "master_server_address", "master_server_addr",
            "device_name", "rdma_devices");
    private static final Set<String> EVICTION_KEYS = Set.of("eviction_policy", "trigger_watermark", "eviction_ratio");
    private static final Set<String> EVICTION_POLICIES = Set.of("LRU", "IsolatedLRU", "noop");

    private final AdapterSettings settings;
    private final Supplier<ConnectorBuild> connector;

    private MooncakeStoreConfigParser(AdapterSettings settings, Supplier<ConnectorBuild> connector) {
        this.settings = settings;
        this.connector = connector;
    }

    /**
     * @param connector the build of the connector that would serve the declaration (its HA backends)
     * @throws ConfigurationException at the offending key
     */
    static MooncakeStoreConfig parse(AdapterSettings settings, Supplier<ConnectorBuild> connector) {
        return new MooncakeStoreConfigParser(settings, connector).parse();
    }

    private MooncakeStoreConfig parse() {
        rejectMisspellings();
        checkLookupOnCallerThread();
        int numWorkers = workers(List.of(NUM_WORKERS.key()), settings.get(NUM_WORKERS.key()));
        Map<Lane, Integer> perOpWorkers = perOpWorkers(settings.get(PER_OP_WORKERS.key()));
        // The reference gives eviction's nested defaults, so only a declared block means one is wanted.
        EvictionConfig eviction = settings.isDeclared(EVICTION.key()) ? eviction(settings.get(EVICTION.key())) : null;
        ReplicateConfig replicate = new ReplicateConfig(replicaCount(REPLICA_NUM.key()), replicaCount(NOF_REPLICA_NUM.key()));
        // Sorted: Typesafe keeps no declaration order, and a stable order keeps `validate` output diffable.
        Map<String, String> setup = new TreeMap<>();
        for (String key : settings.keys()) {
            Object value = settings.get(key);
            if (!key.equals(TYPE_KEY) && !MooncakeOption.isOption(key) && value != null) {
                setup.put(key, toSetupString(key, value));
            }
        }
        SetupValueChecks.check(settings, setup, connector);
        return new MooncakeStoreConfig(setup, numWorkers, perOpWorkers, replicate, eviction, rpcTimeout(),
                bounds(), nativeClients(setup), uncheckedObjects());
    }

    private UncheckedObjects uncheckedObjects() {
        String key = UNCHECKED_OBJECTS.key();
        Object raw = settings.get(key);
        return (raw instanceof String s ? UncheckedObjects.fromKey(s) : Optional.<UncheckedObjects>empty())
                .orElseThrow(() -> settings.error(key, key + " must be one of " + UncheckedObjects.validKeys()
                        + ", got " + Json.render(raw)));
    }

    /**
     * Further native clients take a handshake port of their own, which only P2PHANDSHAKE hands out:
     * with a metadata server, clients of one local_hostname would publish one segment name.
     */
    private int nativeClients(Map<String, String> setup) {
        String key = NATIVE_CLIENTS.key();
        int n = (int) integer(key, 1, MAX_NATIVE_CLIENTS, "");
        String metadata = setup.get("metadata_server");
        if (n > 1 && !"P2PHANDSHAKE".equals(metadata)) {
            throw settings.error(key, key + " = " + n + " needs metadata_server = \"P2PHANDSHAKE\", got "
                    + Json.render(settings.get("metadata_server")) + ": with a metadata server, native clients of one "
                    + "local_hostname would publish one segment name; use 1");
        }
        return n;
    }

    /** Ignored (see {@link MooncakeOption#LOOKUP_ON_CALLER_THREAD}), but a value that never meant anything is still an error. */
    private void checkLookupOnCallerThread() {
        String key = LOOKUP_ON_CALLER_THREAD.key();
        Object raw = settings.get(key);
        if (!(raw instanceof Boolean)) {
            throw settings.error(key, key + " must be true or false, got " + Json.render(raw));
        }
    }

    private void rejectMisspellings() {
        MISSPELLINGS.forEach((wrong, right) -> {
            if (settings.keys().contains(wrong)) {
                throw settings.error(wrong, "unknown key '" + wrong + "' (got " + Json.render(settings.get(wrong))
                        + "): Mooncake reads '" + right + "' and would silently ignore '" + wrong + "'; use " + right);
            }
        });
    }

    private static boolean isInteger(Object value) {
        return value instanceof Integer || value instanceof Long;
    }

    /** A positive thread count, at most {@link #MAX_WORKERS}. */
    private int workers(List<String> keyPath, Object raw) {
        String key = keyPath.size() == 1 ? keyPath.get(0) : keyPath.get(0) + "['" + keyPath.get(1) + "']";
        if (!isInteger(raw)) {
            throw settings.error(keyPath, keyPath.size() == 1
                    ? key + " must be a positive integer, got " + Json.render(raw)
                    : key + " must be an integer, got " + Json.typeName(raw));
        }
        long n = ((Number) raw).longValue();
        if (n <= 0) {
            throw settings.error(keyPath, key + " must be a positive integer, got " + n);
        }
        if (n > MAX_WORKERS) {
            throw settings.error(keyPath, key + " must be at most " + MAX_WORKERS + ", got " + n);
        }
        return (int) n;
    }

    /**
     * LMCache's three steps, in its order: every value an integer, then every value positive,
     * then (an improvement) every key a known lane, instead of a native error later.
     */
    private Map<Lane, Integer> perOpWorkers(Object raw) {
        Map<Lane, Integer> lanes = new EnumMap<>(Lane.class);
        if (raw == null) {
            return lanes;
        }
        if (!(raw instanceof Map<?, ?> map)) {
            throw settings.error(PER_OP_WORKERS.key(), "per_op_workers must be an object, got " + Json.typeName(raw));
        }
        map.forEach((k, v) -> {
            if (!isInteger(v)) {
                workers(List.of(PER_OP_WORKERS.key(), String.valueOf(k)), v);
            }
        });
        Map<String, Integer> counts = new TreeMap<>();
        map.forEach((k, v) -> counts.put(String.valueOf(k), workers(List.of(PER_OP_WORKERS.key(), String.valueOf(k)), v)));
        counts.forEach((k, n) -> {
            Lane lane = Lane.fromKey(k).orElseThrow(() -> settings.error(List.of(PER_OP_WORKERS.key(), k),
                    "unknown lane key in per_op_workers: '" + k + "' (valid: " + Lane.validKeys() + ")"));
            lanes.put(lane, n);
        });
        return lanes;
    }

    private EvictionConfig eviction(Object raw) {
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof Map<?, ?> map)) {
            throw settings.error(EVICTION.key(), "eviction must be an object, got " + Json.typeName(raw) + " " + Json.render(raw));
        }
        for (Object key : map.keySet()) {
            if (!EVICTION_KEYS.contains(String.valueOf(key))) {
                throw settings.error(List.of(EVICTION.key(), String.valueOf(key)), "unknown key in eviction: '" + key
                        + "' (valid: eviction_policy, trigger_watermark, eviction_ratio)");
            }
        }
        Object policy = map.get("eviction_policy");
        if (!(policy instanceof String) || !EVICTION_POLICIES.contains(policy)) {
            throw settings.error(List.of(EVICTION.key(), "eviction_policy"), "eviction.eviction_policy must be 'LRU', "
                    + "'IsolatedLRU', or 'noop', got " + (policy instanceof String ? "'" + policy + "'" : Json.render(policy)));
        }
        return new EvictionConfig((String) policy, fraction(map, "trigger_watermark"), fraction(map, "eviction_ratio"));
    }

    private double fraction(Map<?, ?> eviction, String key) {
        Object v = eviction.get(key);
        if (!(v instanceof Number n)) {
            throw settings.error(List.of(EVICTION.key(), key), "eviction." + key + " must be a number, got " + Json.render(v));
        }
        double value = n.doubleValue();
        if (!(value > 0.0 && value <= 1.0)) {
            throw settings.error(List.of(EVICTION.key(), key), "eviction." + key + " must be a number in (0, 1], got " + value);
        }
        return value;
    }

    private Duration rpcTimeout() {
        String key = RPC_TIMEOUT_MS.key();
        Object raw = settings.get(key);
        long max = BatchBounds.MAX_MILLIS.toMillis();
        if (!isInteger(raw) || ((Number) raw).longValue() < 1 || ((Number) raw).longValue() > max) {
            throw settings.error(key, key + " must be an integer from 1 to " + max
                    + " (milliseconds), got " + Json.render(raw));
        }
        return Duration.ofMillis(((Number) raw).longValue());
    }

    private BatchBounds bounds() {
        return new BatchBounds(millis(BATCH_TIMEOUT_MS.key()), millis(SUSPECT_AFTER_MS.key()),
                (int) integer(MAX_ABANDONED_CALLS.key(), 0, BatchBounds.MAX_ABANDONED_CALLS, ""));
    }

    private Duration millis(String key) {
        return Duration.ofMillis(integer(key, 1, BatchBounds.MAX_MILLIS.toMillis(), " (milliseconds)"));
    }

    private long integer(String key, long min, long max, String unit) {
        Object raw = settings.get(key);
        if (!isInteger(raw) || ((Number) raw).longValue() < min || ((Number) raw).longValue() > max) {
            throw settings.error(key, key + " must be an integer from " + min + " to " + max + unit + ", got "
                    + Json.render(raw));
        }
        return ((Number) raw).longValue();
    }

    private int replicaCount(String key) {
        Object raw = settings.get(key);
        if (raw == null) {
            return ReplicateConfig.UNSET;
        }
        if (!isInteger(raw) || ((Number) raw).longValue() < 0 || ((Number) raw).longValue() > Integer.MAX_VALUE) {
            throw settings.error(key, key + " must be a non-negative integer, got " + Json.render(raw));
        }
        return ((Number) raw).intValue();
    }

    /** Python's {@code str(value)} for the scalar types a declaration can hold. */
    private String toSetupString(String key, Object value) {
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
            throw settings.error(key, key + " must be a string, number or boolean, got " + Json.typeName(value)
                    + " " + Json.render(value) + ": it would be forwarded to Mooncake's setup_internal,"
                    + " which takes only string values");
        }
        throw settings.error(key, key + " has an unsupported value type " + value.getClass().getName());
    }
}
