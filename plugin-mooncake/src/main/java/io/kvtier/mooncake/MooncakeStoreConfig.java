package io.kvtier.mooncake;

import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.ConfigurationException;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The parsed, immutable configuration of one {@code mooncake_store} instance. Every map is copied
 * on construction, so a caller mutating its own map later changes nothing here (LMCache's config
 * test 14). The constructor validates like LMCache's config class does, so direct construction is
 * checked too.
 */
public final class MooncakeStoreConfig {
    /** A guard against a typo creating thousands of threads. */
    public static final int MAX_WORKERS = 1024;
    /** Mooncake's coro_rpc waits 30 s by default; a cache tier should give up sooner. */
    public static final Duration DEFAULT_RPC_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration MAX_RPC_TIMEOUT = Duration.ofMinutes(10);

    private final Map<String, String> setupConfig;
    private final int numWorkers;
    private final Map<Lane, Integer> perOpWorkers;
    private final ReplicateConfig replicateConfig;
    private final EvictionConfig eviction;
    private final Duration rpcTimeout;
    private final boolean lookupOnCallerThread;
    private final BatchBounds bounds;

    public MooncakeStoreConfig(Map<String, String> setupConfig, int numWorkers, Map<Lane, Integer> perOpWorkers,
                               ReplicateConfig replicateConfig, EvictionConfig eviction, Duration rpcTimeout,
                               boolean lookupOnCallerThread) {
        this(setupConfig, numWorkers, perOpWorkers, replicateConfig, eviction, rpcTimeout, lookupOnCallerThread,
                BatchBounds.DEFAULTS);
    }

    MooncakeStoreConfig(Map<String, String> setupConfig, int numWorkers, Map<Lane, Integer> perOpWorkers,
                        ReplicateConfig replicateConfig, EvictionConfig eviction, Duration rpcTimeout,
                        boolean lookupOnCallerThread, BatchBounds bounds) {
        Map<String, String> setup = new LinkedHashMap<>();
        setupConfig.forEach((k, v) -> setup.put(Objects.requireNonNull(k, "setup key"),
                Objects.requireNonNull(v, () -> "setup value of " + k)));
        this.setupConfig = Collections.unmodifiableMap(setup);
        this.numWorkers = requireWorkers("num_workers", numWorkers);
        EnumMap<Lane, Integer> lanes = new EnumMap<>(Lane.class);
        perOpWorkers.forEach((lane, n) -> lanes.put(lane, requireWorkers("per_op_workers['" + lane.key() + "']", n)));
        this.perOpWorkers = Collections.unmodifiableMap(lanes);
        this.replicateConfig = Objects.requireNonNull(replicateConfig, "replicateConfig");
        this.eviction = eviction;
        if (rpcTimeout.isNegative() || rpcTimeout.isZero() || rpcTimeout.compareTo(MAX_RPC_TIMEOUT) > 0) {
            throw new IllegalArgumentException("rpc_timeout_ms must be between 1 and " + MAX_RPC_TIMEOUT.toMillis()
                    + ", got " + rpcTimeout.toMillis());
        }
        this.rpcTimeout = rpcTimeout;
        this.lookupOnCallerThread = lookupOnCallerThread;
        this.bounds = Objects.requireNonNull(bounds, "bounds");
    }

    /**
     * Parses a declaration; see {@link MooncakeStoreConfigParser}.
     *
     * @throws ConfigurationException at the offending key
     */
    public static MooncakeStoreConfig fromSettings(AdapterSettings settings) {
        return MooncakeStoreConfigParser.parse(settings);
    }

    private static int requireWorkers(String key, int n) {
        if (n <= 0) {
            throw new IllegalArgumentException(key + " must be a positive integer, got " + n);
        }
        if (n > MAX_WORKERS) {
            throw new IllegalArgumentException(key + " must be at most " + MAX_WORKERS + ", got " + n);
        }
        return n;
    }

    /** What is handed to Mooncake's {@code setup_internal(ConfigDict)}. */
    public Map<String, String> setupConfig() {
        return setupConfig;
    }

    public int numWorkers() {
        return numWorkers;
    }

    /** Only the lanes that were configured; the others use the shared pool. */
    public Map<Lane, Integer> perOpWorkers() {
        return perOpWorkers;
    }

    public ReplicateConfig replicateConfig() {
        return replicateConfig;
    }

    public Optional<EvictionConfig> eviction() {
        return Optional.ofNullable(eviction);
    }

    /** How long one RPC to the master may take, connecting included; a batch makes at most two in a row. */
    public Duration rpcTimeout() {
        return rpcTimeout;
    }

    /** Whether lookups run on the thread that calls {@code lookupAndLock} instead of on a lane. */
    public boolean lookupOnCallerThread() {
        return lookupOnCallerThread;
    }

    /** batch_timeout_ms, suspect_after_ms and max_abandoned_calls. */
    BatchBounds bounds() {
        return bounds;
    }

    /** The {@code protocol} setup value as written, or empty (Mooncake then uses tcp). */
    public Optional<String> protocol() {
        return Optional.ofNullable(setupConfig.get("protocol"));
    }

    /**
     * Whether the L1 region must be registered with the NIC. Matched case-insensitively:
     * {@code "RDMA"} must not silently skip registration as it does in LMCache.
     */
    public boolean isRdma() {
        return protocol().map(p -> p.equalsIgnoreCase("rdma")).orElse(false);
    }

    /** The view {@code kvtier validate} prints. */
    public Map<String, Object> view() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("num_workers", numWorkers);
        if (perOpWorkers.isEmpty()) {
            view.put("per_op_workers", null);
        } else {
            Map<String, Object> lanes = new LinkedHashMap<>();
            perOpWorkers.forEach((lane, n) -> lanes.put(lane.key(), n));
            view.put("per_op_workers", lanes);
        }
        view.put("setup_config", new LinkedHashMap<>(setupConfig));
        view.put("replicate_config", replicateConfig.view());
        view.put("eviction", eviction == null ? null : eviction.view());
        view.put("rpc_timeout_ms", rpcTimeout.toMillis());
        view.put("lookup_on_caller_thread", lookupOnCallerThread);
        view.putAll(bounds.view());
        return view;
    }

    @Override
    public String toString() {
        return "MooncakeStoreConfig" + view();
    }
}
