package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.SIZE;
import static io.kvtier.mooncake.Fixtures.await;
import static io.kvtier.mooncake.Fixtures.empty;
import static io.kvtier.mooncake.Fixtures.filled;
import static io.kvtier.mooncake.Fixtures.keys;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.ObjectKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An instance with several native Mooncake clients (native_clients), through the double, which
 * writes every client's setup and batch calls to a file: each batch is split between the clients,
 * and every key keeps its own result and bytes.
 */
class NativeClientsTest {
    private static final int CLIENTS = 3;

    @TempDir
    Path dir;
    private Path calls;
    private final List<MooncakeStoreAdapter> adapters = new ArrayList<>();

    @AfterEach
    void closeAll() {
        adapters.forEach(MooncakeStoreAdapter::close);
    }

    private MooncakeStoreAdapter adapter(Object... extra) {
        calls = dir.resolve("calls");
        List<Object> body = new ArrayList<>(List.of("native_clients", CLIENTS, "local_hostname", "127.0.0.1:17813",
                "global_segment_size", 33554432, "testdouble_calls_file", calls.toString(), "testdouble_nodes", "a,b"));
        body.addAll(List.of(extra));
        MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.body(body.toArray()));
        adapters.add(adapter);
        return adapter;
    }

    /** The recorded calls of one operation: the client that made each, and how many keys it had. */
    private List<Map.Entry<String, Integer>> recorded(String op) throws IOException {
        List<Map.Entry<String, Integer>> out = new ArrayList<>();
        for (String line : Files.readAllLines(calls)) {
            String[] fields = line.split(" ");
            if (fields[1].equals(op)) {
                out.add(Map.entry(fields[0], Integer.parseInt(fields[2])));
            }
        }
        return out;
    }

    private static List<Integer> keyCounts(List<Map.Entry<String, Integer>> calls) {
        return calls.stream().map(Map.Entry::getValue).sorted().toList();
    }

    private static long clients(List<Map.Entry<String, Integer>> calls) {
        return calls.stream().map(Map.Entry::getKey).distinct().count();
    }

    @Test
    void onlyTheFirstClientContributesASegmentAndTheOthersTakeAHandshakePortOfTheirOwn() throws IOException {
        adapter();
        List<String> setups = Files.readAllLines(calls).stream().filter(line -> line.contains(" setup ")).toList();
        assertThat(setups).hasSize(CLIENTS);
        assertThat(setups.get(0)).endsWith(" setup 127.0.0.1:17813 33554432");
        assertThat(setups.subList(1, CLIENTS)).allSatisfy(line -> assertThat(line).endsWith(" setup 127.0.0.1 0"));
    }

    @Test
    void aStoreIsSplitIntoARunPerClientAndALoadIntoARunPerClientAndNode() throws IOException {
        MooncakeStoreAdapter adapter = adapter();
        OffHeapRegion source = new OffHeapRegion(7 * SIZE);
        assertThat(await(adapter.store(keys(0, 7), filled(source, 7, 11))).allOk()).isTrue();
        // Each client's run starts its puts, then, none of its keys placed in the own segment (no
        // testdouble_local_node), puts them again through Mooncake's put.
        assertThat(keyCounts(recorded("put"))).containsExactly(2, 2, 2, 2, 3, 3);
        assertThat(clients(recorded("put"))).isEqualTo(CLIENTS);

        OffHeapRegion target = new OffHeapRegion(7 * SIZE);
        BatchResult loaded = await(adapter.load(keys(0, 7), empty(target, 7)));
        assertThat(loaded.allOk()).isTrue();
        for (int i = 0; i < 7; i++) {
            assertThat(target.read(i * SIZE, SIZE)).as("key %d", i).isEqualTo(OffHeapRegion.expected(SIZE, i + 11));
        }
        // Keys 0, 2, 4, 6 are on node a and 1, 3, 5 on b: each node's keys cut into three runs.
        assertThat(keyCounts(recorded("get"))).containsExactly(1, 1, 1, 1, 1, 2);
        assertThat(clients(recorded("get"))).isEqualTo(CLIENTS);
    }

    @Test
    void aKeyThatFailsOnOneClientFailsAloneAndInItsPlace() {
        ObjectKey failing = TestDouble.key(5);
        MooncakeStoreAdapter adapter = adapter("testdouble_fail_keys", failing.wireString());
        OffHeapRegion source = new OffHeapRegion(7 * SIZE);
        BatchResult stored = await(adapter.store(keys(0, 7), filled(source, 7, 3)));
        List<KeyResult> expected = new ArrayList<>(Collections.nCopies(7, KeyResult.OK));
        expected.set(5, KeyResult.ERROR);
        assertThat(stored.results()).containsExactlyElementsOf(expected);
    }

    @Test
    void lookupsAndDeletesTakeTheClientsInTurn() throws IOException {
        MooncakeStoreAdapter adapter = adapter();
        for (int i = 0; i < CLIENTS; i++) {
            assertThat(await(adapter.lookupAndLock(keys(0, 2))).results()).containsOnly(KeyResult.MISSING);
            adapter.unlock(keys(0, 2));
            await(adapter.delete(keys(0, 2)));
        }
        assertThat(clients(recorded("exists"))).isEqualTo(CLIENTS);
        assertThat(clients(recorded("remove"))).isEqualTo(CLIENTS);
    }

    @Test
    void theConnectorRefusesACountOutsideOneToSixtyFour() {
        var lib = TestDouble.binding();
        String[] keys = {"local_hostname", "metadata_server", "master_server_addr"};
        String[] values = {"127.0.0.1", "P2PHANDSHAKE", "double-" + UUID.randomUUID() + ":1"};
        int timeout = (int) Duration.ofSeconds(5).toMillis();
        assertThat(lib.kvt_create(keys, values, 3, timeout, 0)).isNull();
        assertThat(lib.kvt_last_error()).isEqualTo("kvtier_mooncake: native_clients must be 1 to 64, got 0");
        assertThat(lib.kvt_create(keys, values, 3, timeout, 65)).isNull();
        assertThat(lib.kvt_last_error()).isEqualTo("kvtier_mooncake: native_clients must be 1 to 64, got 65");
    }
}
