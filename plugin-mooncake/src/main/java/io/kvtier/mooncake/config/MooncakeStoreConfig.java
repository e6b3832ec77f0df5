package io.kvtier.mooncake.config;

import io.kvtier.mooncake.binding.NativeLibraryLocator;
import io.kvtier.mooncake.deadline.BatchBounds;
import io.kvtier.mooncake.lanes.Lane;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.ConfigurationException;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The parsed, immutable configuration of one {@code mooncake_store} instance. Every map is copied
 * on construction, so a caller mutating its own map later changes nothing here (LMCache's config
 * test 14). Its values were checked by {@link MooncakeStoreConfigParser}, the one place that checks.
 */
public final class MooncakeStoreConfig {
    /**
     * Mooncake's DEFAULT_GLOBAL_SEGMENT_SIZE (types.h), which its setup takes when the declaration
     * gives no global_segment_size: a pass-through key has no default in the settings.
     */
    static final long MOONCAKE_DEFAULT_SEGMENT_BYTES = 16L << 20;

    private final Map<String, String> setupConfig;
    private final int numWorkers;
    private final Map<Lane, Integer> perOpWorkers;
    private final ReplicateConfig replicateConfig;
    private final EvictionConfig eviction;
    private final Duration rpcTimeout;
    private final BatchBounds bounds;
    private final int nativeClients;
    private final UncheckedObjects uncheckedObjects;

    MooncakeStoreConfig(Map<String, String> setupConfig, int numWorkers, Map<Lane, Integer> perOpWorkers,
                        ReplicateConfig replicateConfig, EvictionConfig eviction, Duration rpcTimeout,
                        BatchBounds bounds, int nativeClients, UncheckedObjects uncheckedObjects) {
        Map<String, String> setup = new LinkedHashMap<>();
        setupConfig.forEach((k, v) -> setup.put(Objects.requireNonNull(k, "setup key"),
                Objects.requireNonNull(v, () -> "setup value of " + k)));
        this.setupConfig = Collections.unmodifiableMap(setup);
        this.numWorkers = numWorkers;
        EnumMap<Lane, Integer> lanes = new EnumMap<>(Lane.class);
        lanes.putAll(perOpWorkers);
        this.perOpWorkers = Collections.unmodifiableMap(lanes);
        this.replicateConfig = Objects.requireNonNull(replicateConfig, "replicateConfig");
        this.eviction = eviction;
        this.rpcTimeout = Objects.requireNonNull(rpcTimeout, "rpcTimeout");
        this.bounds = Objects.requireNonNull(bounds, "bounds");
        this.nativeClients = nativeClients;
        this.uncheckedObjects = Objects.requireNonNull(uncheckedObjects, "uncheckedObjects");
    }

    /**
     * Parses a declaration; see {@link MooncakeStoreConfigParser}. An HA backend in
     * master_server_addr is checked against the build of the connector that creation would load.
     *
     * @throws ConfigurationException at the offending key
     */
    public static MooncakeStoreConfig fromSettings(AdapterSettings settings) {
        return fromSettings(settings, () -> NativeLibraryLocator.fromEnvironment().build());
    }

    /** As {@link #fromSettings(AdapterSettings)}, with the connector's build given. */
    static MooncakeStoreConfig fromSettings(AdapterSettings settings, Supplier<ConnectorBuild> connector) {
        return MooncakeStoreConfigParser.parse(settings, connector);
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

    /** batch_timeout_ms, suspect_after_ms and max_abandoned_calls. */
    public BatchBounds bounds() {
        return bounds;
    }

    /** How many native Mooncake clients split each batch's transfers between them. */
    public int nativeClients() {
        return nativeClients;
    }

    /** What a load does with an object stored without a checksum. */
    public UncheckedObjects uncheckedObjects() {
        return uncheckedObjects;
    }

    /**
     * The bytes of the segment this instance contributes to the cluster (its first native client's
     * global_segment_size, the others contribute none); 0 for a client without a segment.
     */
    public long segmentBytes() {
        String declared = setupConfig.get("global_segment_size");
        // SetupValueChecks let only decimal digits below 2^63 through.
        return declared == null ? MOONCAKE_DEFAULT_SEGMENT_BYTES : Long.parseLong(declared);
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

    /**
     * The view {@code kvtier validate} prints: every option under its key, except the replica
     * counts, which are shown together as LMCache's {@code replicate_config}, and the setup values.
     */
    public Map<String, Object> view() {
        Map<String, Object> view = new LinkedHashMap<>();
        for (MooncakeOption option : MooncakeOption.values()) {
            // A switch expression, so that the compiler holds every option to be shown.
            Object shown = switch (option) {
                case NUM_WORKERS -> numWorkers;
                case PER_OP_WORKERS -> perOpWorkersView();
                case REPLICA_NUM, NOF_REPLICA_NUM -> replicateConfig.view();
                case RPC_TIMEOUT_MS -> rpcTimeout.toMillis();
                case LOOKUP_ON_CALLER_THREAD -> MooncakeOption.IGNORED;
                case EVICTION -> eviction == null ? null : eviction.view();
                case BATCH_TIMEOUT_MS -> bounds.batchTimeout().toMillis();
                case SUSPECT_AFTER_MS -> bounds.suspectAfter().toMillis();
                case MAX_ABANDONED_CALLS -> bounds.maxAbandonedCalls();
                case NATIVE_CLIENTS -> nativeClients;
                case UNCHECKED_OBJECTS -> uncheckedObjects.key();
            };
            view.put(option.viewKey(), shown);
        }
        view.put("setup_config", new LinkedHashMap<>(setupConfig));
        return view;
    }

    private Map<String, Object> perOpWorkersView() {
        if (perOpWorkers.isEmpty()) {
            return null;
        }
        Map<String, Object> lanes = new LinkedHashMap<>();
        perOpWorkers.forEach((lane, n) -> lanes.put(lane.key(), n));
        return lanes;
    }

    @Override
    public String toString() {
        return "MooncakeStoreConfig" + view();
    }
}
