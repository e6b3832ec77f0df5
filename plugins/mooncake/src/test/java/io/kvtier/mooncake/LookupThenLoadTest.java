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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load of keys that a lookup found reads them where the lookup's answer placed them, within
 * the read lease that answer carries, without asking the master again (native/src/remembered.h).
 * The double records every query a load makes ("query n") in its calls file.
 */
class LookupThenLoadTest {
    private final List<MooncakeStoreAdapter> adapters = new ArrayList<>();
    @TempDir
    Path dir;

    private MooncakeStoreAdapter storedThree(Object... extra) {
        List<Object> body = new ArrayList<>(List.of("testdouble_nodes", "a,b", "testdouble_calls_file",
                dir.resolve("calls").toString()));
        body.addAll(List.of(extra));
        MooncakeStoreAdapter adapter = TestDouble.create(TestDouble.body(body.toArray()));
        adapters.add(adapter);
        assertThat(await(adapter.store(keys(0, 3), filled(new OffHeapRegion(3 * SIZE), 3, 5))).results())
                .containsOnly(KeyResult.OK);
        return adapter;
    }

    @AfterEach
    void closeAll() {
        adapters.forEach(MooncakeStoreAdapter::close);
    }

    private long queries() throws IOException {
        return Files.readAllLines(dir.resolve("calls")).stream().filter(line -> line.contains(" query ")).count();
    }

    private static BatchResult loadVerified(MooncakeStoreAdapter adapter, List<ObjectKey> keys) {
        OffHeapRegion into = new OffHeapRegion(keys.size() * SIZE);
        BatchResult loaded = await(adapter.load(keys, empty(into, keys.size())));
        for (int i = 0; i < keys.size(); i++) {
            if (loaded.get(i) == KeyResult.OK) {
                assertThat(into.read(i * SIZE, SIZE)).as("key %d", i).isEqualTo(OffHeapRegion.expected(SIZE, i + 5));
            }
        }
        return loaded;
    }

    @Test
    void aLoadOfKeysALookupFoundAsksTheMasterNothing() throws IOException {
        MooncakeStoreAdapter adapter = storedThree();
        assertThat(await(adapter.lookupAndLock(keys(0, 3))).results()).containsOnly(KeyResult.OK);
        assertThat(loadVerified(adapter, keys(0, 3)).results()).containsOnly(KeyResult.OK);
        adapter.unlock(keys(0, 3));
        assertThat(queries()).isZero();
    }

    @Test
    void aLoadWithoutALookupOrOfAKeyLoadedBeforeAsksTheMaster() throws IOException {
        MooncakeStoreAdapter adapter = storedThree();
        assertThat(loadVerified(adapter, keys(0, 3)).results()).containsOnly(KeyResult.OK);
        assertThat(queries()).isEqualTo(1);
        assertThat(await(adapter.lookupAndLock(keys(0, 1))).results()).containsOnly(KeyResult.OK);
        assertThat(loadVerified(adapter, keys(0, 3)).results()).containsOnly(KeyResult.OK);
        adapter.unlock(keys(0, 1));
        assertThat(queries()).as("one answer serves one load, for the keys it found").isEqualTo(2);
        assertThat(loadVerified(adapter, keys(0, 1)).results()).containsOnly(KeyResult.OK);
        assertThat(queries()).isEqualTo(3);
    }

    @Test
    void aLeaseTooShortToOutlastTheLoadIsNotReliedOn() throws IOException {
        MooncakeStoreAdapter adapter = storedThree("testdouble_lease_ms", 1000);
        assertThat(await(adapter.lookupAndLock(keys(0, 3))).results()).containsOnly(KeyResult.OK);
        assertThat(loadVerified(adapter, keys(0, 3)).results()).containsOnly(KeyResult.OK);
        assertThat(queries()).isEqualTo(1);
    }

    @Test
    void aKeyDeletedAfterTheLookupIsAMissAtTheLoad() throws IOException {
        MooncakeStoreAdapter adapter = storedThree();
        assertThat(await(adapter.lookupAndLock(keys(0, 3))).results()).containsOnly(KeyResult.OK);
        adapter.unlock(keys(1, 1));
        assertThat(await(adapter.delete(keys(1, 1))).results()).containsOnly(KeyResult.OK);
        assertThat(loadVerified(adapter, keys(0, 3)).results()).containsExactly(KeyResult.OK, KeyResult.MISSING, KeyResult.OK);
        assertThat(queries()).as("the deleted key's location is asked for again").isEqualTo(1);
    }
}
