package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mooncake moves a guarded batch's bytes through the connector's staging memory, never the caller's
 * slice (native/src/staging.h), so a transfer whose batch completed at its deadline touches the
 * slice no more. A storage node is paused (SIGSTOP) during a 32 MiB transfer: its
 * kernel takes the request (and a store's first megabytes), and the rest waits. The batch
 * completes at its deadline, the caller writes other bytes into its slice, and the node resumes.
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealLateTransfersTest {
    private static final int OBJECT = 32 << 20;
    private static final Path RAW_BENCH = Artifacts.RAW_BENCH;

    @TempDir
    Path logs;
    private MooncakeMaster master;
    private Process node;
    private L1Arena arena;
    private L2Adapter client;

    @AfterEach
    void stop() throws Exception {
        if (node != null) {
            // Resumed whatever happened, so that it can end.
            new ProcessBuilder("kill", "-CONT", Long.toString(node.pid())).start().waitFor(10, TimeUnit.SECONDS);
            node.getOutputStream().close(); // a node ends at EOF on stdin
            if (!node.waitFor(10, TimeUnit.SECONDS)) {
                node.destroyForcibly().waitFor();
            }
        }
        if (client != null) {
            client.close();
        }
        if (arena != null) {
            arena.close();
        }
        if (master != null) {
            master.close();
        }
    }

    private void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(node.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -" + name).isTrue();
    }

    private static void fill(L1Slice slice, byte value) {
        byte[] bytes = new byte[OBJECT];
        Arrays.fill(bytes, value);
        slice.buffer().duplicate().clear().put(bytes);
    }

    /** A node of 128 MiB, and an instance without a segment whose batches complete within 1 s. */
    private void startNodeAndClient(String name) throws Exception {
        master = MooncakeMaster.startOwn(logs);
        assertThat(Files.isExecutable(RAW_BENCH)).as(RAW_BENCH + " is built with the real connector").isTrue();
        node = new ProcessBuilder(RAW_BENCH.toString(), "node", "--master", master.address(),
                "--segment", Long.toString(128L << 20))
                .redirectError(logs.resolve("node.log").toFile())
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).as("the node is ready; see %s", logs.resolve("node.log")).isEqualTo("ready");
        arena = L1Arena.allocate(2L * OBJECT, L1Arena.DEFAULT_ALIGNMENT, true);
        client = RealInstances.create(master.address(), arena, name, 0,
                "{\"replica_num\":1,\"batch_timeout_ms\":1000}");
    }

    private static List<ObjectKey> key(String model) {
        return List.of(new ObjectKey(ByteBuffer.allocate(8).putLong(ProcessHandle.current().pid()).array(), model, 0));
    }

    /**
     * With the node paused, the batch completes at its deadline; the caller then writes 6s into
     * the slice, the node resumes, and the abandoned call returns.
     */
    private void completeWhilePausedThenReuse(L1Slice slice, Supplier<CompletableFuture<BatchResult>> batch)
            throws Exception {
        signal("STOP");
        BatchResult result = batch.get().get(30, TimeUnit.SECONDS);
        assertThat(result.results()).containsExactly(KeyResult.ERROR);
        assertThat(result.firstError()).contains("did not complete within batch_timeout_ms");
        fill(slice, (byte) 6); // the caller reuses its slice at once
        signal("CONT");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!client.status().get("abandoned_calls").equals(0)) {
            assertThat(System.nanoTime()).as("the abandoned call returns").isLessThan(deadline);
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /**
     * Had the transfer gone on reading the slice, the object would hold the new bytes behind the
     * old ones. Whether Mooncake completes the put once the node resumes is its own affair: an
     * object stored holds the slice's bytes of the call.
     */
    @Test
    void aStoreToAPausedNodeSendsNothingOfItsSliceAfterItsBatchCompleted() throws Exception {
        startNodeAndClient("late-store");
        List<ObjectKey> key = key("kvtier-late-store");
        L1Slice slice = arena.allocate(OBJECT);
        fill(slice, (byte) 5);

        completeWhilePausedThenReuse(slice, () -> client.store(key, List.of(slice)));
        L1Slice target = arena.allocate(OBJECT);
        BatchResult loaded = client.load(key, List.of(target)).get(30, TimeUnit.SECONDS);
        assertThat(loaded.results()).as("%s", loaded.firstError()).containsAnyOf(KeyResult.OK, KeyResult.MISSING);
        if (loaded.results().get(0) == KeyResult.OK) {
            byte[] expected = new byte[OBJECT];
            Arrays.fill(expected, (byte) 5);
            byte[] held = new byte[OBJECT];
            target.buffer().duplicate().clear().get(held);
            assertThat(Arrays.equals(held, expected)).as("the object holds the slice's bytes of the call").isTrue();
        }
    }

    /** Had the transfer gone on receiving into the slice, the slice would hold the object's bytes instead of the caller's. */
    @Test
    void aLoadFromAPausedNodeWritesNothingIntoItsSliceAfterItsBatchCompleted() throws Exception {
        startNodeAndClient("late-load");
        List<ObjectKey> key = key("kvtier-late-load");
        L1Slice source = arena.allocate(OBJECT);
        fill(source, (byte) 5);
        BatchResult stored = client.store(key, List.of(source)).get(30, TimeUnit.SECONDS);
        assertThat(stored.results()).as("stored: %s", stored.firstError()).containsExactly(KeyResult.OK);

        L1Slice target = arena.allocate(OBJECT);
        completeWhilePausedThenReuse(target, () -> client.load(key, List.of(target)));
        byte[] expected = new byte[OBJECT];
        Arrays.fill(expected, (byte) 6);
        byte[] held = new byte[OBJECT];
        target.buffer().duplicate().clear().get(held);
        assertThat(Arrays.equals(held, expected)).as("the slice holds only the caller's bytes").isTrue();
    }
}
