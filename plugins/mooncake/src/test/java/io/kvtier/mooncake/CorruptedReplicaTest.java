package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.SIZE;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.config.ReplicateConfig;
import io.kvtier.mooncake.deadline.SliceGuard;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.ObjectKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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

    private void storeBothKeys(int replicas) {
        storeBothKeys(replicas, "10000");
    }

    /** With leases of {@code leaseMs}: once one ends, the master may give the object's memory to another. */
    private void storeBothKeys(int replicas, String leaseMs) {
        client = MooncakeClient.open(TestDouble.binding(), Map.of("local_hostname", "127.0.0.1", "metadata_server",
                "P2PHANDSHAKE", "master_server_addr", "corrupt-" + UUID.randomUUID() + ":1", "testdouble_nodes", "a,b",
                "testdouble_corrupt_node", "a", "testdouble_lease_ms", leaseMs), Duration.ofSeconds(5), 1);
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
        storeBothKeys(1, "0");
        assertThat(load()).containsExactly(LEASE_EXPIRED, LEASE_EXPIRED);
        assertThat(client.lookup(keys)).as("both objects kept").containsExactly(1, 1);
        assertThat(MooncakeCodes.keyError(LEASE_EXPIRED, "load").kind()).isEqualTo(ErrorKind.TRANSIENT);
    }
}
