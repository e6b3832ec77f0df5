package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mooncake's object checksum, on by default in the connector and computed by its own fast CRC,
 * which gives Mooncake's result: a replica overwritten after its put, as a late transfer does, is
 * an error, never a load of wrong bytes, and it is removed so that a store can replace it. The
 * instance holds the cluster's only segment, in this JVM, so the replica's memory (found through
 * the master's /query_key) is overwritten here. Skipped, with the reason, when there is no real
 * connector or master.
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealObjectChecksumTest {
    private static final int SIZE = 64 << 10;
    private static final Pattern BUFFER_ADDRESS = Pattern.compile("\"buffer_address_\":(\\d+)");
    private static final Path CHECKSUM_BENCH = Artifacts.CHECKSUM_BENCH;

    /**
     * The connector's CRC must be Mooncake's, or Mooncake's own clients would reject what kvtier stores;
     * and its copy with the checksum in one pass (its reads from its own segment) must copy and give it.
     */
    @Test
    void theConnectorsChecksumIsMooncakesOwn() throws Exception {
        Process bench = new ProcessBuilder(CHECKSUM_BENCH.toString()).redirectErrorStream(true).start();
        String out = new String(bench.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bench.waitFor(120, TimeUnit.SECONDS)).as("kvtier_checksum_bench ends").isTrue();
        assertThat(out.lines()).contains("disagreements: 0 of 2000", "copy disagreements: 0 of 2000");
        assertThat(bench.exitValue()).as(out).isZero();
        out.strip().lines().forEach(line -> System.out.println("[checksum] " + line));
    }

    @Test
    void aReplicaOverwrittenAfterItsPutLoadsAsAnErrorAndIsReplacedByTheNextStore(@TempDir Path logs) throws Exception {
        try (MooncakeMaster master = MooncakeMaster.startOwn(logs);
             L1Arena arena = L1Arena.allocate(16 << 20, L1Arena.DEFAULT_ALIGNMENT, true)) {
            L2Adapter adapter = RealInstances.create(master.address(), arena, "checked", 32 << 20, "{\"replica_num\":1}");
            try {
                List<ObjectKey> keys = List.of(key(1), key(2));
                List<L1Slice> objects = List.of(object(arena, 1), object(arena, 2));
                assertThat(adapter.store(keys, objects).join().allOk()).isTrue();

                long replica = replicaAddress(master, keys.get(0));
                Pointer bytes = Pointer.wrap(Runtime.getSystemRuntime(), replica);
                bytes.putByte(SIZE / 2, (byte) ~bytes.getByte(SIZE / 2));

                List<L1Slice> into = List.of(arena.allocate(SIZE), arena.allocate(SIZE));
                BatchResult loaded = adapter.load(keys, into).join();
                assertThat(loaded.results()).containsExactly(KeyResult.ERROR, KeyResult.OK);
                assertThat(loaded.error(0)).hasValueSatisfying(error -> {
                    assertThat(error.kind()).isEqualTo(ErrorKind.PERMANENT);
                    assertThat(error.message()).contains("CHECKSUM_MISMATCH");
                });
                assertThat(into.get(1).buffer()).isEqualTo(objects.get(1).buffer());

                assertThat(adapter.lookupAndLock(keys).join().results())
                        .as("the corrupted object was removed").containsExactly(KeyResult.MISSING, KeyResult.OK);
                adapter.unlock(keys);
                assertThat(adapter.store(keys.subList(0, 1), objects.subList(0, 1)).join().allOk()).isTrue();
                assertThat(adapter.load(keys.subList(0, 1), into.subList(0, 1)).join().allOk()).isTrue();
                assertThat(into.get(0).buffer()).isEqualTo(objects.get(0).buffer());
            } finally {
                adapter.close();
            }
        }
    }

    private static ObjectKey key(int n) {
        return new ObjectKey(ByteBuffer.allocate(12).putLong(System.nanoTime()).putInt(n).array(), "kvtier-it", 0);
    }

    private static L1Slice object(L1Arena arena, int seed) {
        L1Slice slice = arena.allocate(SIZE);
        byte[] bytes = new byte[SIZE];
        new Random(seed).nextBytes(bytes);
        slice.buffer().duplicate().clear().put(bytes);
        return slice;
    }

    /** Where the master says the key's only replica lies: in this JVM, in the instance's segment. */
    private static long replicaAddress(MooncakeMaster master, ObjectKey key) throws Exception {
        // The admin server does not decode its query: a wire key's characters ('@', letters, digits) go as they are.
        URI query = URI.create(master.adminUrl() + "/query_key?key=" + key.wireString());
        String answer = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(query).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher address = BUFFER_ADDRESS.matcher(answer);
        assertThat(address.find()).as("a replica in " + answer).isTrue();
        return Long.parseLong(address.group(1));
    }
}
