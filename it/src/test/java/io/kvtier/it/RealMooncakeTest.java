package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * LMCache's mooncake_store integration tests, in Java form, against a real Mooncake master over TCP on
 * loopback, plus two instances in one JVM and a put and a get in two host processes. Skipped, with
 * the reason, when there is no real connector or no master.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(RealMooncakeAvailable.class)
class RealMooncakeTest {
    private static final AtomicInteger NEXT_KEY = new AtomicInteger();

    private final long run = System.nanoTime();
    private MooncakeMaster master;
    private L1Arena arena;
    private L2Adapter adapter;
    private final List<L2Adapter> extra = new ArrayList<>();

    @BeforeAll
    void startMaster(@TempDir Path logs) throws Exception {
        assertThat(System.getenv("MC_TCP_BIND_ADDRESS")).as("clients must advertise loopback").isEqualTo("127.0.0.1");
        master = MooncakeMaster.start(logs);
        arena = L1Arena.allocate(64 << 20, L1Arena.DEFAULT_ALIGNMENT, true);
        adapter = create("mooncake", 64 << 20, "{\"num_workers\":2}");
    }

    @AfterAll
    void stop() throws Exception {
        extra.forEach(L2Adapter::close);
        if (adapter != null) {
            adapter.close();
        }
        if (arena != null) {
            arena.close();
        }
        if (master != null) {
            master.close();
        }
    }

    /**
     * An instance on the test master that contributes {@code segmentBytes} to the cluster;
     * {@code extraJson} is an object whose members are added.
     */
    private L2Adapter create(String name, long segmentBytes, String extraJson) {
        return RealInstances.create(master.address(), arena, name, segmentBytes, extraJson);
    }


    private List<ObjectKey> keys(int n) {
        List<ObjectKey> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] hash = ByteBuffer.allocate(12).putLong(run).putInt(NEXT_KEY.getAndIncrement()).array();
            keys.add(new ObjectKey(hash, "kvtier-it", 0));
        }
        return keys;
    }

    private List<L1Slice> objects(int n, int size) {
        Random random = new Random(n * 31L + size);
        List<L1Slice> slices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            L1Slice slice = arena.allocate(size);
            byte[] bytes = new byte[size];
            random.nextBytes(bytes);
            slice.buffer().duplicate().clear().put(bytes);
            slices.add(slice);
        }
        return slices;
    }

    private List<L1Slice> empty(int n, int size) {
        List<L1Slice> slices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            slices.add(arena.allocate(size));
        }
        return slices;
    }

    @Test
    void test25_storeAndLookup() {
        List<ObjectKey> keys = keys(5);
        BatchResult stored = adapter.store(keys, objects(5, 4096)).join();
        assertThat(stored.allOk()).as(stored.firstError()).isTrue();
        assertThat(stored.newBytes()).isEqualTo(5 * 4096);
        assertThat(adapter.lookupAndLock(keys).join().results()).containsOnly(KeyResult.OK).hasSize(5);
        adapter.unlock(keys);
    }

    @Test
    void test26_lookupNonexistentKeys() {
        assertThat(adapter.lookupAndLock(keys(5)).join().results()).containsOnly(KeyResult.MISSING).hasSize(5);
    }

    @Test
    void test27_fullStoreLookupLoadWorkflow() {
        List<ObjectKey> keys = keys(1);
        L1Slice floats = arena.allocate(512 * Float.BYTES);
        for (int i = 0; i < 512; i++) {
            floats.buffer().order(ByteOrder.nativeOrder()).putFloat(i * Float.BYTES, i * 0.5f);
        }
        assertThat(adapter.store(keys, List.of(floats)).join().allOk()).isTrue();
        assertThat(adapter.lookupAndLock(keys).join().allOk()).isTrue();
        L1Slice loaded = arena.allocate(512 * Float.BYTES);
        assertThat(adapter.load(keys, List.of(loaded)).join().results()).containsExactly(KeyResult.OK);
        assertThat(loaded.buffer()).isEqualTo(floats.buffer());
        adapter.unlock(keys);
    }

    @Test
    void test28_batchStoreLookupLoad() {
        List<ObjectKey> keys = keys(10);
        List<L1Slice> sources = objects(10, 8192);
        assertThat(adapter.store(keys, sources).join().allOk()).isTrue();
        assertThat(adapter.lookupAndLock(keys).join().allOk()).isTrue();
        List<L1Slice> targets = empty(10, 8192);
        assertThat(adapter.load(keys, targets).join().allOk()).isTrue();
        for (int i = 0; i < 10; i++) {
            assertThat(targets.get(i).buffer()).as("object %d", i).isEqualTo(sources.get(i).buffer());
        }
    }

    @Test
    void test29_mixedLookupOfExistingAndMissingKeys() {
        List<ObjectKey> keys = keys(5);
        assertThat(adapter.store(keys.subList(0, 3), objects(3, 1024)).join().allOk()).isTrue();
        assertThat(adapter.lookupAndLock(keys).join().results()).containsExactly(KeyResult.OK, KeyResult.OK,
                KeyResult.OK, KeyResult.MISSING, KeyResult.MISSING);
    }

    @Test
    void test30_deleteStoredKey() {
        List<ObjectKey> keys = keys(1);
        adapter.store(keys, objects(1, 1024)).join();
        assertThat(adapter.delete(keys).join().results()).containsExactly(KeyResult.OK);
        assertThat(adapter.lookupAndLock(keys).join().results()).containsExactly(KeyResult.MISSING);
    }

    @Test
    void test31_deleteNonexistentKeys() {
        assertThat(adapter.delete(keys(3)).join().results()).containsOnly(KeyResult.MISSING).hasSize(3);
    }

    @Test
    void test32_batchDeleteOfExistingAndMissingKeys() {
        List<ObjectKey> keys = keys(4);
        adapter.store(keys.subList(0, 2), objects(2, 1024)).join();
        assertThat(adapter.delete(keys).join().results()).containsExactly(KeyResult.OK, KeyResult.OK,
                KeyResult.MISSING, KeyResult.MISSING);
        assertThat(adapter.lookupAndLock(keys.subList(0, 2)).join().results()).containsOnly(KeyResult.MISSING);
    }

    @Test
    void test33_deleteUpdatesUsageTracking() {
        long baseline = adapter.usage().totalBytesUsed();
        List<ObjectKey> keys = keys(3);
        adapter.store(keys, objects(3, 2048)).join();
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(baseline + 3 * 2048);
        adapter.delete(keys).join();
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(baseline);
        assertThat(adapter.usage().usageFraction()).isEqualTo(-1.0);
    }

    @Test
    void test34_factoryCreatesAHealthyAdapter() {
        assertThat(adapter.status()).containsEntry("is_healthy", true).containsEntry("type", "mooncake_store");
    }

    @Test
    void twoNamedInstancesInOneJvmShareTheClusterButNotTheirState() {
        // The second instance contributes no segment: closing it must not take objects with it.
        L2Adapter lanes = create("lanes", 0, "{\"per_op_workers\":{\"lookup\":1,\"retrieve\":2,\"store\":2}}");
        extra.add(lanes);
        List<ObjectKey> keys = keys(4);
        List<L1Slice> sources = objects(4, 4096);
        assertThat(adapter.store(keys, sources).join().allOk()).isTrue();
        assertThat(lanes.lookupAndLock(keys).join().allOk()).isTrue();
        List<L1Slice> targets = empty(4, 4096);
        assertThat(lanes.load(keys, targets).join().allOk()).isTrue();
        for (int i = 0; i < 4; i++) {
            assertThat(targets.get(i).buffer()).isEqualTo(sources.get(i).buffer());
        }
        assertThat(lanes.usage().totalBytesUsed()).as("usage counts what this instance stored").isZero();
        lanes.close();
        assertThat(adapter.lookupAndLock(keys).join().allOk()).isTrue();
    }

    @Test
    void aPutInOneHostProcessIsReadByAGetInAnother(@TempDir Path dir) throws Exception {
        byte[] bytes = new byte[300_000];
        new Random(7).nextBytes(bytes);
        Path in = Files.write(dir.resolve("in.bin"), bytes);
        Path out = dir.resolve("out.bin");
        // The put process contributes no segment, so the object lives in this JVM's segment and
        // outlives the process that wrote it.
        String instance = "{\"type\":\"mooncake_store\",\"local_hostname\":\"127.0.0.1\",\"metadata_server\":"
                + "\"P2PHANDSHAKE\",\"master_server_addr\":\"" + master.address() + "\",\"protocol\":\"tcp\","
                + "\"global_segment_size\":\"0\",\"local_buffer_size\":\"16777216\"}";
        String hash = String.format("%016xab", run);
        HostProcess host = HostProcess.installWithMooncakePlugin(dir.resolve("host"));
        HostProcess.Result put = host.kvtier("put", "--in", in.toString(), "--model", "kvtier-it", "--kv-rank", "1",
                "--hash", hash, "--l2-adapter", instance);
        assertThat(put.exit()).as(put.err()).isZero();
        HostProcess.Result get = host.kvtier("get", "--size", String.valueOf(bytes.length), "--out", out.toString(),
                "--model", "kvtier-it", "--kv-rank", "1", "--hash", hash, "--l2-adapter", instance);
        assertThat(get.exit()).as(get.err()).isZero();
        assertThat(Files.readAllBytes(out)).isEqualTo(bytes);
    }

    @Test
    void theHostRunsTheLocalExampleAgainstTheMaster(@TempDir Path dir) throws Exception {
        Path mooncakeLog = dir.resolve("mooncake.log");
        HostProcess host = HostProcess.installWithMooncakePlugin(dir).withEnv("MOONCAKE_MASTER", master.address())
                .withEnv("KVTIER_MOONCAKE_LOG", mooncakeLog.toString());
        HostProcess.Result r = host.kvtier("run", "-c", "conf/mooncake-local.conf", "--chunks", "64",
                "--chunk-size", "256 KiB", "--json");
        assertThat(r.exit()).as(r.err() + r.out()).isZero();
        assertThat(r.out()).contains("\"verified\":64", "\"passed\":true");
        // Mooncake's glog lines ("E20261207 06:47:13.991073 ...") go to the file, not to stderr, and
        // only from WARNING up (MooncakeLog): this run's setup logs one error there.
        assertThat(r.err()).doesNotContainPattern("(?m)^[IWE]\\d{8} ");
        assertThat(Files.readString(mooncakeLog)).containsPattern("(?m)^[WE]\\d{8} ").doesNotContainPattern("(?m)^I\\d{8} ");
    }
}
