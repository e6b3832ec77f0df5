package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kvtier beside Mooncake's own clients on one master and storage node: its Python client
 * (MooncakeDistributedStore, which LMCache's mooncake_store and the vLLM and SGLang connectors use)
 * and its C client (store_c.h), each at its defaults (no object checksum) and with
 * MOONCAKE_STORE_CHECKSUM=true. The other client builds its keys in LMCache's wire format itself
 * (it/src/test/python/mooncake_peer.py), from the format docs/sharing.md writes out.
 */
@ExtendWith(RealMooncakeAvailable.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealInteropTest {
    private static final int CHUNK = 256 << 10;
    private static final String MODEL = "interop";
    private static final Path PEER = Path.of(System.getProperty("kvtier.root", "..")).toAbsolutePath().normalize()
            .resolve("it/src/test/python/mooncake_peer.py");
    /** The interpreter Mooncake's Python client was built for (native/mooncake/build). */
    private static final String PYTHON = "/usr/bin/python3";

    /** Logs and the peers' files; kept when a test fails. */
    private Path dir;
    private MooncakeMaster master;
    private Process node;
    private L1Arena arena;
    private L2Adapter kvtier;
    /** A master of its own whose only segment is kvtier's: every replica kvtier stores there is in its segment. */
    private MooncakeMaster ownSegmentMaster;
    private L2Adapter kvtierWithSegment;
    private final List<Peer> peers = new ArrayList<>();
    private final AtomicInteger nextHash = new AtomicInteger();
    private final long run = System.nanoTime();

    @BeforeAll
    void start(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) throws Exception {
        this.dir = dir;
        master = MooncakeMaster.startOwn(dir);
        node = new ProcessBuilder(Artifacts.RAW_BENCH.toString(), "node", "--master", master.address(),
                "--segment", Long.toString(128L << 20))
                .redirectError(dir.resolve("node.log").toFile()).start();
        assertThat(new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8)).readLine())
                .as("the storage node is ready; see %s", dir.resolve("node.log")).isEqualTo("ready");
        arena = L1Arena.allocate(16 << 20, L1Arena.DEFAULT_ALIGNMENT, true);
        kvtier = RealInstances.create(master.address(), arena, "kvtier", 0, "{}");
        Path own = Files.createDirectories(dir.resolve("own-segment"));
        ownSegmentMaster = MooncakeMaster.startOwn(own);
        kvtierWithSegment = RealInstances.create(ownSegmentMaster.address(), arena, "kvtier-with-segment", 64L << 20, "{}");
    }

    @AfterAll
    void stop() throws Exception {
        for (Peer peer : peers) {
            peer.close();
        }
        if (kvtier != null) {
            kvtier.close();
        }
        if (kvtierWithSegment != null) {
            kvtierWithSegment.close();
        }
        if (ownSegmentMaster != null) {
            ownSegmentMaster.close();
        }
        if (arena != null) {
            arena.close();
        }
        if (node != null) {
            node.getOutputStream().close(); // a node ends at EOF on stdin
            if (!node.waitFor(10, TimeUnit.SECONDS)) {
                node.destroyForcibly().waitFor();
            }
        }
        if (master != null) {
            master.close();
        }
    }

    @ParameterizedTest(name = "{0} client, MOONCAKE_STORE_CHECKSUM={1}")
    @CsvSource({"python, false", "python, true", "c, false", "c, true"})
    void whatAMooncakeClientStoresKvtierLooksUpAndLoadsByteForByteAndLeavesInPlace(String client, boolean checksum)
            throws Exception {
        Peer peer = peer(client, checksum);
        List<ObjectKey> keys = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ObjectKey key = key(i);
            byte[] bytes = content();
            peer.put(key, bytes);
            keys.add(key);
            contents.add(bytes);
        }

        assertThat(kvtier.lookupAndLock(keys).get(30, TimeUnit.SECONDS).results()).containsOnly(KeyResult.OK);
        kvtier.unlock(keys);
        List<L1Slice> into = slices(keys.size());
        BatchResult loaded = kvtier.load(keys, into).get(30, TimeUnit.SECONDS);
        assertThat(loaded.results()).as(loaded.firstError()).containsOnly(KeyResult.OK);
        for (int i = 0; i < keys.size(); i++) {
            assertThat(bytes(into.get(i))).as("key %s", keys.get(i)).isEqualTo(contents.get(i));
        }

        for (int i = 0; i < keys.size(); i++) {
            assertThat(peer.exists(keys.get(i))).as("the %s client still finds %s", client, keys.get(i)).isTrue();
            assertThat(peer.get(keys.get(i))).isEqualTo(contents.get(i));
        }
    }

    @ParameterizedTest(name = "{0} client")
    @ValueSource(strings = {"python", "c"})
    void whatKvtierStoresAMooncakeClientLoadsByteForByte(String client) throws Exception {
        storeThenLoadWith(kvtier, peer(client, false), 2);
    }

    @Test
    void aBatchMixingObjectsWithAndWithoutAChecksumLoadsWhole() throws Exception {
        ObjectKey unchecked = key(0);
        ObjectKey checked = key(1);
        ObjectKey own = key(2);
        byte[] uncheckedBytes = content();
        byte[] checkedBytes = content();
        peer("python", false).put(unchecked, uncheckedBytes);
        peer("python", true).put(checked, checkedBytes);
        L1Slice ownSlice = filled(content());
        assertThat(kvtier.store(List.of(own), List.of(ownSlice)).get(30, TimeUnit.SECONDS).allOk()).isTrue();

        List<ObjectKey> keys = List.of(unchecked, own, checked);
        List<L1Slice> into = slices(3);
        BatchResult loaded = kvtier.load(keys, into).get(30, TimeUnit.SECONDS);
        assertThat(loaded.results()).as(loaded.firstError()).containsOnly(KeyResult.OK);
        assertThat(bytes(into.get(0))).isEqualTo(uncheckedBytes);
        assertThat(bytes(into.get(1))).isEqualTo(bytes(ownSlice));
        assertThat(bytes(into.get(2))).isEqualTo(checkedBytes);
    }

    @Test
    void withUncheckedObjectsMissKvtierReportsAnObjectWithoutAChecksumMissingAndLeavesIt() throws Exception {
        Peer peer = peer("python", false);
        ObjectKey key = key(0);
        byte[] bytes = content();
        peer.put(key, bytes);
        L2Adapter strict = RealInstances.create(master.address(), arena, "strict", 0, "{\"unchecked_objects\":\"miss\"}");
        try {
            assertThat(strict.load(List.of(key), slices(1)).get(30, TimeUnit.SECONDS).results())
                    .containsExactly(KeyResult.MISSING);
        } finally {
            strict.close();
        }
        assertThat(peer.exists(key)).as("the other client's object is left in place").isTrue();
        assertThat(peer.get(key)).isEqualTo(bytes);
    }

    /**
     * The replicas land in kvtier's own segment, so kvtier writes them in place and records the
     * checksum of that copy (docs/connector.md, "The store path"); a client with
     * MOONCAKE_STORE_CHECKSUM=true checks it on get.
     */
    @ParameterizedTest(name = "{0} client, MOONCAKE_STORE_CHECKSUM={1}")
    @CsvSource({"python, false", "python, true", "c, false", "c, true"})
    void whatKvtierWritesInPlaceInItsOwnSegmentAMooncakeClientLoadsByteForByte(String client, boolean checksum)
            throws Exception {
        storeThenLoadWith(kvtierWithSegment, peer(client, checksum, ownSegmentMaster), 3);
    }

    /** {@code instance} stores {@code count} objects; {@code peer} finds each and loads it byte for byte. */
    private void storeThenLoadWith(L2Adapter instance, Peer peer, int count) throws Exception {
        List<ObjectKey> keys = new ArrayList<>();
        List<L1Slice> stored = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(key(i));
            stored.add(filled(content()));
        }
        BatchResult result = instance.store(keys, stored).get(30, TimeUnit.SECONDS);
        assertThat(result.results()).as(result.firstError()).containsOnly(KeyResult.OK);
        for (int i = 0; i < count; i++) {
            assertThat(peer.exists(keys.get(i))).as("the peer finds %s", keys.get(i)).isTrue();
            assertThat(peer.get(keys.get(i))).as("key %s", keys.get(i)).isEqualTo(bytes(stored.get(i)));
        }
    }

    /** A key no other test's is: its chunk hash counts up within this run. */
    private ObjectKey key(int group) {
        byte[] hash = ByteBuffer.allocate(12).putLong(run).putInt(nextHash.incrementAndGet()).array();
        return new ObjectKey(hash, MODEL, 0x0102_0304L + group, group, "");
    }

    private static byte[] content() {
        byte[] bytes = new byte[CHUNK];
        new Random().nextBytes(bytes);
        return bytes;
    }

    private L1Slice filled(byte[] bytes) {
        L1Slice slice = arena.allocate(bytes.length);
        slice.buffer().duplicate().clear().put(bytes);
        return slice;
    }

    private List<L1Slice> slices(int n) {
        List<L1Slice> slices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            slices.add(arena.allocate(CHUNK));
        }
        return slices;
    }

    private static byte[] bytes(L1Slice slice) {
        ByteBuffer buffer = slice.buffer().duplicate().clear();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    private Peer peer(String client, boolean checksum) throws IOException {
        return peer(client, checksum, master);
    }

    private Peer peer(String client, boolean checksum, MooncakeMaster of) throws IOException {
        Peer peer = new Peer(client, checksum, of.address(), dir);
        peers.add(peer);
        return peer;
    }

    /** One process of mooncake_peer.py: Mooncake's own client, driven a command a line. */
    private static final class Peer implements AutoCloseable {
        private final Process process;
        private final Writer commands;
        private final BufferedReader answers;
        private final Path dir;
        private final String name;

        Peer(String client, boolean checksum, String master, Path dir) throws IOException {
            String home = System.getenv("MOONCAKE_HOME");
            assertThat(home).as("MOONCAKE_HOME, as native/mooncake/build prints it").isNotNull();
            assertThat(Path.of(home, "python", "mooncake")).as("Mooncake's Python client, built by native/mooncake/build")
                    .isDirectory();
            this.dir = dir;
            this.name = client + (checksum ? "-checksum" : "-default") + "-" + System.nanoTime();
            ProcessBuilder builder = new ProcessBuilder(PYTHON, PEER.toString(), "--client", client, "--master", master)
                    .redirectError(dir.resolve(name + ".log").toFile());
            builder.environment().put("PYTHONPATH", Path.of(home, "python").toString());
            builder.environment().remove("MOONCAKE_STORE_CHECKSUM");
            if (checksum) {
                builder.environment().put("MOONCAKE_STORE_CHECKSUM", "true");
            }
            process = builder.start();
            commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            assertThat(answers.readLine()).as("the %s client is set up; see %s", client, dir.resolve(name + ".log"))
                    .isEqualTo("ready");
        }

        void put(ObjectKey key, byte[] bytes) throws IOException {
            Path file = Files.write(dir.resolve(name + "-put.bin"), bytes);
            assertThat(ask("put " + fields(key) + " " + file)).as("put of %s", key).isEqualTo("ok " + key.wireString());
        }

        byte[] get(ObjectKey key) throws IOException {
            Path file = dir.resolve(name + "-get.bin");
            assertThat(ask("get " + fields(key) + " " + file)).as("get of %s", key).startsWith("ok ");
            return Files.readAllBytes(file);
        }

        boolean exists(ObjectKey key) throws IOException {
            String answer = ask("exists " + fields(key));
            assertThat(answer).as("exists of %s", key).isIn("0", "1");
            return answer.equals("1");
        }

        /** The key's fields, from which the peer builds its wire key itself. */
        private static String fields(ObjectKey key) {
            return key.modelName() + " " + key.kvRank() + " " + key.objectGroupId() + " "
                    + HexFormat.of().formatHex(key.chunkHash());
        }

        private String ask(String command) throws IOException {
            commands.write(command + "\n");
            commands.flush();
            String answer = answers.readLine();
            assertThat(answer).as("an answer to '%s'; see %s", command, dir.resolve(name + ".log")).isNotNull();
            return answer;
        }

        @Override
        public void close() throws Exception {
            commands.close(); // the peer ends at EOF on stdin
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
