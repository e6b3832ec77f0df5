package io.kvtier.mooncake.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kvtier.hostlib.AdapterReference;
import io.kvtier.mooncake.MooncakeStoreProvider;
import io.kvtier.mooncake.TestDouble;
import io.kvtier.mooncake.deadline.BatchBounds;
import io.kvtier.mooncake.lanes.Lane;
import io.kvtier.spi.ConfigurationException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** LMCache's config tests 1–15 (the numbers below), plus kvtier's stricter checks: unknown lanes, misspellings, eviction. */
class MooncakeStoreConfigTest {
    private static final BatchBounds BOUNDS = new BatchBounds(Duration.ofSeconds(5), Duration.ofSeconds(1), 32);


    private static Map<String, Object> body(Object... kv) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "mooncake_store");
        body.put("master_server_addr", MASTER);
        for (int i = 0; i < kv.length; i += 2) {
            body.put((String) kv[i], kv[i + 1]);
        }
        return body;
    }

    /** Every body names a master: it is required. */
    private static final String MASTER = "10.0.0.1:50051";

    /** Where {@link TestDouble#settings} says a value was written. */
    private static final String AT = "test ('mooncake_store'): ";

    private static MooncakeStoreConfig parse(Object... kv) {
        return fromBody(body(kv));
    }

    private static MooncakeStoreConfig fromBody(Map<String, Object> body) {
        return MooncakeStoreConfig.fromSettings(TestDouble.settings(body));
    }

    // 1
    @Test
    void fromDictMinimal() {
        MooncakeStoreConfig config = parse("local_hostname", "node01", "metadata_server", "P2PHANDSHAKE", "protocol", "tcp");
        assertThat(config.setupConfig()).as("in key order").containsExactly(
                Map.entry("local_hostname", "node01"),
                Map.entry("master_server_addr", MASTER),
                Map.entry("metadata_server", "P2PHANDSHAKE"),
                Map.entry("protocol", "tcp"));
        assertThat(config.setupConfig()).doesNotContainKey("type");
        assertThat(config.numWorkers()).isEqualTo(4);
        assertThat(config.perOpWorkers()).isEmpty();
    }

    // 2
    @Test
    void fromDictWithNumWorkers() {
        MooncakeStoreConfig config = parse("num_workers", 8, "local_hostname", "h");
        assertThat(config.numWorkers()).isEqualTo(8);
        assertThat(config.setupConfig()).doesNotContainKey("num_workers");
    }

    // 3
    @Test
    void fromDictWithPerOpWorkers() {
        MooncakeStoreConfig config = parse("per_op_workers", Map.of("lookup", 4, "retrieve", 16, "store", 4));
        assertThat(config.perOpWorkers()).containsExactlyInAnyOrderEntriesOf(
                Map.of(Lane.LOOKUP, 4, Lane.LOAD, 16, Lane.STORE, 4));
        assertThat(config.setupConfig()).doesNotContainKey("per_op_workers");
    }

    // 4
    @Test
    void forwardsBooleanMooncakeKeysAsStrings() {
        MooncakeStoreConfig config = parse("mooncake_prefer_local_alloc", true, "enable_ssd_offload", false);
        assertThat(config.setupConfig())
                .containsEntry("mooncake_prefer_local_alloc", "True")
                .containsEntry("enable_ssd_offload", "False");
    }

    // 5
    @Test
    void forwardsUnknownKeys() {
        assertThat(parse("experimental_key", "some_value").setupConfig()).containsEntry("experimental_key", "some_value");
    }

    // 6
    @Test
    void stripsLmcacheOnlyKeys() {
        MooncakeStoreConfig config = parse("num_workers", 2, "eviction", Map.of("eviction_policy", "LRU"),
                "per_op_workers", Map.of("lookup", 1), "local_hostname", "h");
        assertThat(config.setupConfig()).containsOnlyKeys("local_hostname", "master_server_addr");
    }

    // 7
    @Test
    void convertsValuesToStr() {
        MooncakeStoreConfig config = parse("global_segment_size", 3221225472L, "local_buffer_size", 1024,
                "client_http_port", 9300, "ratio", 0.5);
        assertThat(config.setupConfig())
                .containsEntry("global_segment_size", "3221225472")
                .containsEntry("local_buffer_size", "1024")
                .containsEntry("client_http_port", "9300")
                .containsEntry("ratio", "0.5");
    }

    // 8
    @Test
    void skipsNoneValues() {
        Map<String, Object> body = body("local_hostname", "h");
        body.put("rdma_devices", null);
        body.put("per_op_workers", null);
        body.put("eviction", null);
        MooncakeStoreConfig config = fromBody(body);
        assertThat(config.setupConfig()).containsOnlyKeys("local_hostname", "master_server_addr");
        assertThat(config.perOpWorkers()).isEmpty();
        assertThat(config.eviction()).isEmpty();
    }

    // 9, 10, 11 (and the other shapes LMCache rejects: null, true, a float)
    @Test
    void invalidNumWorkers() {
        for (Object bad : Arrays.asList(0, -1, "four", null, true, 2.5)) {
            assertThatThrownBy(() -> parse("num_workers", bad))
                    .as("num_workers=%s", bad)
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageStartingWith(AT + "num_workers must be a positive integer, got ");
        }
        assertThatThrownBy(() -> parse("num_workers", "four")).hasMessage(AT + "num_workers must be a positive integer, got \"four\"");
        assertThatThrownBy(() -> parse("num_workers", 0)).hasMessage(AT + "num_workers must be a positive integer, got 0");
        assertThatThrownBy(() -> parse("num_workers", 100_000)).hasMessage(AT + "num_workers must be at most 1024, got 100000");
    }

    // 12
    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "four"})
    void invalidPerOpWorkers(String raw) {
        Object value = raw.equals("four") ? raw : Integer.valueOf(raw);
        assertThatThrownBy(() -> parse("per_op_workers", Map.of("lookup", value)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("per_op_workers");
    }

    @Test
    void perOpWorkersMessagesKeepLmcacheWording() {
        assertThatThrownBy(() -> parse("per_op_workers", Map.of("lookup", "four")))
                .hasMessage(AT + "per_op_workers['lookup'] must be an integer, got string");
        assertThatThrownBy(() -> parse("per_op_workers", Map.of("lookup", true)))
                .hasMessage(AT + "per_op_workers['lookup'] must be an integer, got boolean");
        assertThatThrownBy(() -> parse("per_op_workers", Map.of("store", 0)))
                .hasMessage(AT + "per_op_workers['store'] must be a positive integer, got 0");
        assertThatThrownBy(() -> parse("per_op_workers", Map.of("store", -1)))
                .hasMessage(AT + "per_op_workers['store'] must be a positive integer, got -1");
        assertThatThrownBy(() -> parse("per_op_workers", List.of(1, 2)))
                .hasMessage(AT + "per_op_workers must be an object, got array");
        assertThatThrownBy(() -> parse("per_op_workers", 4))
                .hasMessage(AT + "per_op_workers must be an object, got number");
    }

    @Test
    void unknownLaneKeyIsAConfigError() {
        assertThatThrownBy(() -> parse("per_op_workers", Map.of("load", 4)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(AT + "unknown lane key in per_op_workers: 'load' (valid: lookup, retrieve, store, delete)");
    }

    // 13
    @Test
    void partialPerOpWorkers() {
        MooncakeStoreConfig config = parse("per_op_workers", Map.of("retrieve", 16));
        assertThat(config.perOpWorkers()).containsExactly(Map.entry(Lane.LOAD, 16));
        assertThat(config.perOpWorkers()).doesNotContainKeys(Lane.LOOKUP, Lane.STORE, Lane.DELETE);
    }

    // 14
    @Test
    void constructorCopiesSetupConfig() {
        Map<String, String> setup = new HashMap<>(Map.of("local_hostname", "a"));
        Map<Lane, Integer> lanes = new HashMap<>(Map.of(Lane.LOAD, 2));
        MooncakeStoreConfig config = new MooncakeStoreConfig(setup, 4, lanes, ReplicateConfig.DEFAULTS, null, Duration.ofSeconds(5),
                BOUNDS, 1, UncheckedObjects.LOAD);
        setup.put("local_hostname", "b");
        setup.put("extra", "x");
        lanes.put(Lane.STORE, 3);
        assertThat(config.setupConfig()).containsExactly(Map.entry("local_hostname", "a"));
        assertThat(config.perOpWorkers()).containsExactly(Map.entry(Lane.LOAD, 2));
        assertThatThrownBy(() -> config.setupConfig().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(new MooncakeStoreConfig(Map.of(), 1, Map.of(), ReplicateConfig.DEFAULTS, null, Duration.ofSeconds(5),
                BOUNDS, 1, UncheckedObjects.LOAD)
                .perOpWorkers()).isEmpty();

        Map<String, Object> body = body("local_hostname", "a");
        MooncakeStoreConfig parsed = fromBody(body);
        body.put("local_hostname", "changed");
        assertThat(parsed.setupConfig()).containsEntry("local_hostname", "a");
    }

    // 15: LMCache's help() is this type's reference.conf
    @Test
    void theReferenceConfDocumentsEveryKey() {
        AdapterReference reference = AdapterReference.of(new MooncakeStoreProvider()).orElseThrow();
        assertThat(reference.summary()).startsWith("mooncake_store: ");
        Config conf = ConfigFactory.parseString(reference.text());
        assertThat(conf.getObject("options").keySet()).as("reference.conf's options are exactly the MooncakeOption keys")
                .containsExactlyInAnyOrderElementsOf(MooncakeOption.keys());
        assertThat(conf.getObject("options.eviction").keySet()).as("eviction_policy is required, so it has no default")
                .containsExactlyInAnyOrder("trigger_watermark", "eviction_ratio");
        assertThat(reference.text()).contains("# eviction_policy = LRU", "LRU, IsolatedLRU or noop");
        // The setup keys kvtier itself checks, the misspellings it rejects and the keys they stand for.
        assertThat(conf.getObject("pass-through").keySet()).contains("local_hostname", "metadata_server",
                "master_server_addr", "protocol", "rdma_devices", "global_segment_size", "local_buffer_size");
        MooncakeStoreConfigParser.MISSPELLINGS.forEach((wrong, right) -> {
            assertThat(conf.getObject("pass-through").keySet()).contains(right);
            assertThat(reference.text()).contains(wrong + " (use " + right + ")");
        });
        assertThat(reference.text()).contains("setup_internal(ConfigDict)", "--no-l1-use-lazy");
    }

    /** As Trino's assertFullMapping: an option the parser does not read would not fail on a bad value. */
    @Test
    void theParserChecksEveryOption() {
        for (String key : MooncakeOption.keys()) {
            assertThatThrownBy(() -> parse(key, List.of("not", "a", "value")))
                    .as(key)
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageStartingWith(AT + key);
        }
    }

    @Test
    void theValidateViewShowsEveryOption() {
        MooncakeStoreConfig config = parse("replica_num", 2, "nof_replica_num", 1, "per_op_workers", Map.of("store", 2),
                "eviction", Map.of("eviction_policy", "LRU"));
        Map<String, Object> view = config.view();
        for (MooncakeOption option : MooncakeOption.values()) {
            assertThat(view.get(option.viewKey())).as(option.key()).isNotNull();
        }
        assertThat(view.get("replicate_config")).isEqualTo(Map.of("replica_num", "2", "nof_replica_num", "1"));
    }

    @Test
    void uncheckedObjectsAreLoadedByDefaultAndTheOptionTakesLoadMissOrRemove() {
        assertThat(parse().uncheckedObjects()).isEqualTo(UncheckedObjects.LOAD);
        assertThat(parse("unchecked_objects", "miss").uncheckedObjects()).isEqualTo(UncheckedObjects.MISS);
        assertThat(parse("unchecked_objects", "remove").uncheckedObjects()).isEqualTo(UncheckedObjects.REMOVE);
        assertThat(parse("unchecked_objects", "remove").view()).containsEntry("unchecked_objects", "remove");
        assertThat(parse().setupConfig()).doesNotContainKey("unchecked_objects");
        assertThatThrownBy(() -> parse("unchecked_objects", "delete"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(AT + "unchecked_objects must be one of load, miss, remove, got \"delete\"");
        assertThatThrownBy(() -> parse("unchecked_objects", true))
                .hasMessageEndingWith("unchecked_objects must be one of load, miss, remove, got true");
    }

    @Test
    void nativeClientsAreOneToSixtyFourAndMoreThanOneNeedP2PHandshake() {
        assertThat(parse().nativeClients()).isEqualTo(1);
        assertThat(parse("metadata_server", "P2PHANDSHAKE", "native_clients", 4).nativeClients()).isEqualTo(4);
        assertThatThrownBy(() -> parse("metadata_server", "P2PHANDSHAKE", "native_clients", 0))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(AT + "native_clients must be an integer from 1 to 64, got 0");
        assertThatThrownBy(() -> parse("metadata_server", "P2PHANDSHAKE", "native_clients", 65))
                .hasMessageEndingWith("native_clients must be an integer from 1 to 64, got 65");
        assertThatThrownBy(() -> parse("metadata_server", "http://meta:8080/metadata", "native_clients", 2))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(AT + "native_clients = 2 needs metadata_server = \"P2PHANDSHAKE\", got "
                        + "\"http://meta:8080/metadata\": with a metadata server, native clients of one local_hostname "
                        + "would publish one segment name; use 1");
    }

    @Test
    void defaultsComeFromTheReferenceConf() {
        MooncakeStoreConfig config = parse("eviction", Map.of("eviction_policy", "LRU"));
        assertThat(config.numWorkers()).isEqualTo(4);
        assertThat(config.eviction()).contains(new EvictionConfig("LRU", 0.8, 0.2));
        assertThat(parse().eviction()).as("no eviction block unless declared").isEmpty();
        assertThat(parse().setupConfig()).as("pass-through defaults are documentation, not forwarded")
                .containsOnlyKeys("master_server_addr");
    }

    @Test
    void replicaCountsBecomeTheReplicateConfig() {
        MooncakeStoreConfig config = parse("replica_num", 2, "nof_replica_num", 0, "local_hostname", "h");
        assertThat(config.replicateConfig()).isEqualTo(new ReplicateConfig(2, 0));
        assertThat(config.setupConfig()).containsOnlyKeys("local_hostname", "master_server_addr");
        assertThat(parse().replicateConfig()).isEqualTo(ReplicateConfig.DEFAULTS);
        assertThat(parse("replica_num", 3).replicateConfig().nofReplicaNum()).isEqualTo(ReplicateConfig.UNSET);
        assertThatThrownBy(() -> parse("replica_num", -1))
                .hasMessage(AT + "replica_num must be a non-negative integer, got -1");
        assertThatThrownBy(() -> parse("nof_replica_num", "2"))
                .hasMessage(AT + "nof_replica_num must be a non-negative integer, got \"2\"");
    }

    @Test
    void misspellingsNameTheRightKey() {
        assertThatThrownBy(() -> parse("master_server_address", "10.0.0.1:50051"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("master_server_address")
                .hasMessageContaining("master_server_addr'")
                .hasMessageContaining("10.0.0.1:50051");
        assertThatThrownBy(() -> parse("device_name", "mlx5_0"))
                .hasMessageContaining("device_name")
                .hasMessageContaining("rdma_devices")
                .hasMessageContaining("mlx5_0");
    }

    @Test
    void evictionMustBeAnObjectWithAKnownPolicy() {
        assertThatThrownBy(() -> parse("eviction", "lru"))
                .hasMessage(AT + "eviction must be an object, got string \"lru\"");
        assertThatThrownBy(() -> parse("eviction", Map.of("eviction_policy", "FIFO")))
                .hasMessage(AT + "eviction.eviction_policy must be 'LRU', 'IsolatedLRU', or 'noop', got 'FIFO'");
        assertThatThrownBy(() -> parse("eviction", Map.of("trigger_watermark", 0.5)))
                .hasMessage(AT + "eviction.eviction_policy must be 'LRU', 'IsolatedLRU', or 'noop', got null");
        assertThatThrownBy(() -> parse("eviction", Map.of("eviction_policy", "LRU", "ratio", 0.5)))
                .hasMessageContaining("unknown key in eviction: 'ratio'");
        assertThatThrownBy(() -> parse("eviction", Map.of("eviction_policy", "LRU", "trigger_watermark", "high")))
                .hasMessage(AT + "eviction.trigger_watermark must be a number, got \"high\"");

        EvictionConfig eviction = parse("eviction", Map.of("eviction_policy", "IsolatedLRU")).eviction().orElseThrow();
        assertThat(eviction).isEqualTo(new EvictionConfig("IsolatedLRU", 0.8, 0.2));
        assertThat(parse("eviction", Map.of("eviction_policy", "noop", "trigger_watermark", 0.9, "eviction_ratio", 0.1))
                .eviction()).contains(new EvictionConfig("noop", 0.9, 0.1));
    }

    @Test
    void nestedValuesAreRejectedBecauseMooncakeTakesStrings() {
        assertThatThrownBy(() -> parse("serde", Map.of("type", "naive")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("serde")
                .hasMessageContaining("object")
                .hasMessageContaining("string values");
        assertThatThrownBy(() -> parse("rdma_devices", List.of("mlx5_0", "mlx5_1")))
                .hasMessageContaining("rdma_devices must be a string, number or boolean, got array [\"mlx5_0\",\"mlx5_1\"]");
    }

    @Test
    void protocolIsMatchedCaseInsensitivelyButForwardedAsWritten() {
        MooncakeStoreConfig config = parse("protocol", "RDMA");
        assertThat(config.isRdma()).isTrue();
        assertThat(config.setupConfig()).containsEntry("protocol", "RDMA");
        assertThat(parse("protocol", "tcp").isRdma()).isFalse();
        assertThat(parse().isRdma()).isFalse();
    }

    @Test
    void describeGivesTheValidateView() {
        MooncakeStoreProvider provider = new MooncakeStoreProvider();
        MooncakeStoreConfig config = parse("local_hostname", "h", "num_workers", 2, "per_op_workers", Map.of("lookup", 3),
                "replica_num", 2, "eviction", Map.of("eviction_policy", "LRU"));
        Map<String, Object> view = provider.describe(config);
        assertThat(view).containsOnlyKeys("num_workers", "per_op_workers", "setup_config", "replicate_config", "eviction",
                "rpc_timeout_ms", "lookup_on_caller_thread", "batch_timeout_ms", "suspect_after_ms", "max_abandoned_calls",
                "native_clients", "unchecked_objects");
        assertThat(view).containsEntry("unchecked_objects", "load");
        assertThat(view).containsEntry("batch_timeout_ms", 5000L).containsEntry("suspect_after_ms", 1000L)
                .containsEntry("max_abandoned_calls", 32);
        assertThat(view.get("lookup_on_caller_thread")).isEqualTo("ignored");
        assertThat(view.get("rpc_timeout_ms")).isEqualTo(5000L);
        assertThat(view.get("num_workers")).isEqualTo(2);
        assertThat(view.get("per_op_workers")).isEqualTo(Map.of("lookup", 3));
        assertThat(view.get("setup_config")).isEqualTo(Map.of("local_hostname", "h", "master_server_addr", MASTER));
        assertThat(view.get("replicate_config")).isEqualTo(Map.of("replica_num", "2"));
        assertThat(view.get("eviction")).isEqualTo(Map.of("eviction_policy", "LRU", "trigger_watermark", 0.8, "eviction_ratio", 0.2));

        Map<String, Object> minimal = provider.describe(parse());
        assertThat(minimal.get("per_op_workers")).isNull();
        assertThat(minimal.get("eviction")).isNull();
        assertThat(minimal.get("replicate_config")).isEqualTo(Map.of());
    }

    /** A declaration written for an older kvtier still starts: the key moved where a lookup waited, never its answer. */
    @Test
    void lookupOnCallerThreadIsAcceptedAndIgnored() {
        MooncakeStoreConfig onCaller = parse("lookup_on_caller_thread", true, "per_op_workers", Map.of("lookup", 2));
        assertThat(onCaller.perOpWorkers()).containsOnly(Map.entry(Lane.LOOKUP, 2));
        assertThat(onCaller.setupConfig()).doesNotContainKey("lookup_on_caller_thread");
        assertThat(onCaller.view()).containsEntry("lookup_on_caller_thread", "ignored");
        assertThatThrownBy(() -> parse("lookup_on_caller_thread", "yes"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(AT + "lookup_on_caller_thread must be true or false, got \"yes\"");
    }
}
