package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.SIZE;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.config.ReplicateConfig;
import io.kvtier.mooncake.deadline.SliceGuard;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.ObjectKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica whose bytes differ from its object's checksum, through the double with two storage
 * nodes of which "a" answers every read with CHECKSUM_MISMATCH (testdouble_corrupt_node). The k-th
 * key stored has its first replica on node k: key 0 on a (then b), key 1 on b (then a).
 */
class CorruptedReplicaTest {
    private static final long CHECKSUM_MISMATCH = -801;
    private static final long LEASE_EXPIRED = -707;

    private final List<ObjectKey> keys = Fixtures.keys(0, 2);
    private final long[] sizes = {SIZE, SIZE};
    private final OffHeapRegion l1 = new OffHeapRegion(2 * SIZE);
    private MooncakeClient client;
    @TempDir
    Path dir;

    private void storeBothKeys(int replicas) {
        storeBothKeys(replicas, Map.of());
    }

    /** With the double's {@code options} too. */
    private void storeBothKeys(int replicas, Map<String, String> options) {
        Map<String, String> config = new HashMap<>(options);
        config.putAll(Map.of("local_hostname", "127.0.0.1", "metadata_server", "P2PHANDSHAKE", "master_server_addr",
                "corrupt-" + UUID.randomUUID() + ":1", "testdouble_nodes", "a,b", "testdouble_corrupt_node", "a"));
        client = MooncakeClient.open(TestDouble.binding(), config, Duration.ofSeconds(5), 1);
        OffHeapRegion source = new OffHeapRegion(2 * SIZE);
        Fixtures.filled(source, 2, 7);
        long[] rc = client.store(keys, null, addresses(source), sizes, new ReplicateConfig(replicas, ReplicateConfig.UNSET), SliceGuard.ALWAYS);
        assertThat(rc).containsExactly(0, 0);
    }

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
    }

    private static long[] addresses(OffHeapRegion region) {
        return new long[] {region.address, region.address + SIZE};
    }

    private long[] load() {
        return client.load(keys, null, addresses(l1), sizes, SliceGuard.ALWAYS).results();
    }

    @Test
    void aKeyWhoseFirstReplicaIsCorruptedIsReadFromItsOtherReplica() {
        storeBothKeys(2);
        assertThat(load()).containsExactly(SIZE, SIZE);
        assertThat(l1.read(0, SIZE)).isEqualTo(OffHeapRegion.expected(SIZE, 7));
        assertThat(l1.read(SIZE, SIZE)).isEqualTo(OffHeapRegion.expected(SIZE, 8));
        assertThat(client.lookup(keys)).as("a whole replica is left, so the objects are kept").containsExactly(1, 1);
    }

    @Test
    void aKeyWithNoWholeReplicaIsAnErrorAndItIsRemovedSoThatAStoreCanReplaceIt() {
        storeBothKeys(1);
        // The key's slice holds what landed, as after any failed load: the error says not to use it.
        assertThat(load()).containsExactly(CHECKSUM_MISMATCH, SIZE);
        assertThat(l1.read(SIZE, SIZE)).isEqualTo(OffHeapRegion.expected(SIZE, 8));
        assertThat(client.lookup(keys)).containsExactly(0, 1);
        assertThat(MooncakeCodes.keyError(CHECKSUM_MISMATCH, "load").kind()).isEqualTo(ErrorKind.PERMANENT);
    }

    /**
     * A read that outlived its lease (one stuck across a partition) may find the object's memory
     * given to another object since: its mismatch says nothing of the object, which is kept (CI37
     * removed newer objects of those keys on such evidence). Key 0's only replica is on a.
     */
    @Test
    void aMismatchFoundAfterTheLeaseEndedIsLeaseExpiredAndRemovesNothing() {
        storeBothKeys(1, Map.of("testdouble_lease_ms", "0"));
        assertThat(load()).containsExactly(LEASE_EXPIRED, LEASE_EXPIRED);
        assertThat(client.lookup(keys)).as("both objects kept").containsExactly(1, 1);
        assertThat(MooncakeCodes.keyError(LEASE_EXPIRED, "load").kind()).isEqualTo(ErrorKind.TRANSIENT);
    }

    /**
     * A load that returns after the host stored its key again (it outlived its deadline) removes
     * nothing: the key names another object by then. The double holds the load's transfers for
     * 3 s, far longer than the delete and the store that the test makes meanwhile.
     */
    @Test
    void aCorruptedObjectStoredAgainDuringTheLoadThatFoundItIsKept() throws Exception {
        Path calls = dir.resolve("calls");
        storeBothKeys(1, Map.of("testdouble_delay_ms_get", "3000", "testdouble_calls_file", calls.toString()));
        CompletableFuture<long[]> loading = CompletableFuture.supplyAsync(
                () -> client.load(keys.subList(0, 1), null, new long[] {l1.address}, new long[] {SIZE}, SliceGuard.ALWAYS).results());
        SilentNodeTest.until("the load to reach its transfers", () -> TestDouble.calls(calls).stream().anyMatch(l -> l.endsWith(" get 1")));

        assertThat(client.delete(keys.subList(0, 1))).containsExactly(0);
        OffHeapRegion again = new OffHeapRegion(SIZE);
        again.fill(0, SIZE, 99);
        // The third key stored: on a again, whose replicas the double answers with a mismatch.
        assertThat(client.store(keys.subList(0, 1), null, new long[] {again.address}, new long[] {SIZE},
                new ReplicateConfig(1, ReplicateConfig.UNSET), SliceGuard.ALWAYS)).containsExactly(0);

        assertThat(loading.get(30, TimeUnit.SECONDS)).containsExactly(CHECKSUM_MISMATCH);
        assertThat(client.lookup(keys.subList(0, 1))).as("the object stored again is kept").containsExactly(1);
    }
}
