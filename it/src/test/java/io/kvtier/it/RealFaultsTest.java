package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults of the master against a real Mooncake, in this JVM: a master that dies and returns (health
 * of a client without a segment), one that stops answering (bounded waits, no late writes into L1),
 * one that is down when an instance is created, and close() under 1,000 operations in flight. Each
 * test starts a master of its own and prints its figures.
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealFaultsTest {
    private static final int CHUNK = 64 << 10;
    private static final AtomicInteger NEXT_KEY = new AtomicInteger();
    /**
     * How long health may take to follow the master. A probe runs every second and is late after
     * two (Timings.DEFAULTS), so a few seconds on any machine; the bound is one-sided and generous,
     * and the [faults] line prints what it took.
     */
    private static final Duration HEALTH_PATIENCE = Duration.ofSeconds(20);

    @TempDir
    Path logs;
    private MooncakeMaster master;
    private L1Arena arena;
    private final List<L2Adapter> adapters = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        master = MooncakeMaster.startOwn(logs);
        arena = L1Arena.allocate(128 << 20, L1Arena.DEFAULT_ALIGNMENT, true);
    }

    @AfterEach
    void stop() throws Exception {
        adapters.forEach(L2Adapter::close);
        arena.close();
        master.close();
    }

    private L2Adapter create(String name, long segmentBytes, String extraJson) {
        L2Adapter adapter = RealInstances.create(master.address(), arena, name, segmentBytes, extraJson);
        adapters.add(adapter);
        return adapter;
    }

    private static List<ObjectKey> keys(int n) {
        List<ObjectKey> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] hash = ByteBuffer.allocate(12).putLong(ProcessHandle.current().pid()).putInt(NEXT_KEY.getAndIncrement()).array();
            keys.add(new ObjectKey(hash, "kvtier-faults", 0));
        }
        return keys;
    }

    private List<L1Slice> slices(int n, byte fill) {
        List<L1Slice> slices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            L1Slice slice = arena.allocate(CHUNK);
            ByteBuffer b = slice.buffer().duplicate().clear();
            while (b.hasRemaining()) {
                b.put(fill);
            }
            slices.add(slice);
        }
        return slices;
    }

    private static byte[] bytes(L1Slice slice) {
        byte[] copy = new byte[CHUNK];
        slice.buffer().duplicate().clear().get(copy);
        return copy;
    }

    /** Polls {@code condition} every 50 ms; returns how long it took to hold, failing after {@code limit}. */
    private static Duration await(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as(what + " within " + limit).isLessThan(limit);
            TimeUnit.MILLISECONDS.sleep(50);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static boolean healthy(L2Adapter adapter) {
        return adapter.health().healthy();
    }

    @Test
    void aClientWithoutASegmentSaysUnhealthyWhileItsMasterIsDeadAndHealthyWhenItReturns() throws Exception {
        L2Adapter segment = create("segment", 32 << 20, "{}");
        L2Adapter segmentLess = create("segment-less", 0, "{}");
        assertThat(healthy(segment)).isTrue();
        assertThat(healthy(segmentLess)).isTrue();

        master.kill();
        Duration down = await("segment-less instance unhealthy", HEALTH_PATIENCE, () -> !healthy(segmentLess));
        Duration downWithSegment = await("instance with a segment unhealthy", HEALTH_PATIENCE, () -> !healthy(segment));
        assertThat(segmentLess.health().reason()).contains("RPC_FAIL (-900)");
        assertThat(segmentLess.health().unhealthyParts()).containsKey("master");
        long start = System.nanoTime();
        // Refused before it is sent, so it waits on nothing: the message says so.
        assertThatThrownBy(() -> segmentLess.lookupAndLock(keys(4)).join()).cause()
                .hasMessageContaining("is unhealthy, batch not sent");
        Duration failFast = Duration.ofNanos(System.nanoTime() - start);

        master.restart();
        Duration up = await("segment-less instance healthy again", HEALTH_PATIENCE, () -> healthy(segmentLess));
        Duration upWithSegment = await("instance with a segment healthy again", HEALTH_PATIENCE, () -> healthy(segment));
        assertThat(segmentLess.lookupAndLock(keys(4)).join().results()).containsOnly(KeyResult.MISSING);
        System.out.printf("[faults] master killed: unhealthy after %d ms (segment-less) / %d ms (segment); "
                        + "a batch failed fast in %d ms; master back: healthy after %d ms / %d ms%n",
                down.toMillis(), down.plus(downWithSegment).toMillis(), failFast.toMillis(), up.toMillis(),
                up.plus(upWithSegment).toMillis());
    }

    @Test
    void aMasterThatStopsAnsweringBoundsEveryBatchAndNoSliceIsWrittenAfterItsFutureCompleted() throws Exception {
        int rpcTimeoutMs = 1000;
        L2Adapter adapter = create("stalled", 64 << 20, "{\"rpc_timeout_ms\":" + rpcTimeoutMs + ",\"num_workers\":4}");
        List<ObjectKey> keys = keys(32);
        assertThat(adapter.store(keys, slices(32, (byte) 0x11)).get(30, TimeUnit.SECONDS).allOk()).isTrue();

        List<L1Slice> targets = slices(32, (byte) 0x5A);
        Map<Integer, byte[]> atCompletion = new ConcurrentHashMap<>();
        List<CompletableFuture<?>> futures = new ArrayList<>();
        master.pause();
        long start = System.nanoTime();
        long[] doneAfter = new long[8];
        for (int b = 0; b < 8; b++) {
            int batch = b;
            List<Integer> positions = List.of(4 * b, 4 * b + 1, 4 * b + 2, 4 * b + 3);
            CompletableFuture<BatchResult> load = adapter.load(positions.stream().map(keys::get).toList(),
                    positions.stream().map(targets::get).toList());
            futures.add(load.handle((result, error) -> {
                doneAfter[batch] = System.nanoTime() - start;
                positions.forEach(p -> atCompletion.put(p, bytes(targets.get(p))));
                return null;
            }));
        }
        futures.add(adapter.lookupAndLock(keys(4)));
        futures.add(adapter.store(keys(4), slices(4, (byte) 0x22)));
        Duration bound = Duration.ofMillis(2L * rpcTimeoutMs + 4000);
        for (CompletableFuture<?> future : futures) {
            try {
                future.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException expected) {
                // failing is fine; staying incomplete is not
            }
        }
        Duration longest = Duration.ofNanos(Arrays.stream(doneAfter).max().orElseThrow());
        assertThat(longest).isLessThan(bound);

        master.resume();
        Duration back = await("healthy after the master resumes", Duration.ofSeconds(10), () -> healthy(adapter));
        // A batch queued behind everything else on the lanes: once it completes, no earlier call is still running.
        adapter.lookupAndLock(keys).get(30, TimeUnit.SECONDS);
        assertThat(adapter.status()).containsEntry("in_flight", 0);
        for (int p = 0; p < targets.size(); p++) {
            assertThat(bytes(targets.get(p))).as("slice %d unchanged since its future completed", p)
                    .isEqualTo(atCompletion.get(p));
        }
        System.out.printf("[faults] master stopped: every batch completed within %d ms (rpc_timeout_ms %d); "
                + "healthy %d ms after it resumed; 0 slices written after completion%n", longest.toMillis(),
                rpcTimeoutMs, back.toMillis());
    }

    @Test
    void aMasterThatIsDownAtCreationGivesOneClearErrorAtOnce() throws Exception {
        int port = MooncakeMaster.freePort(); // free, so nothing listens on it
        String address = "127.0.0.1:" + port;
        long start = System.nanoTime();
        assertThatThrownBy(() -> RealInstances.create(address, arena, "nomaster", 32 << 20, "{}"))
                .hasMessageStartingWith("--l2-adapter #1 ('mooncake_store'): instance 'nomaster' could not be created: "
                        + "mooncake_store: cannot reach master_server_addr " + address + " within 5000 ms")
                .hasMessageEndingWith("is mooncake_master running?");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).isLessThan(Duration.ofSeconds(5));
        System.out.printf("[faults] master down at creation: failed in %d ms%n", took.toMillis());
    }

    @Test
    void closeDuringAThousandOperationsInFlightCompletesEveryFuture() throws Exception {
        L2Adapter adapter = create("closing", 64 << 20, "{\"num_workers\":2}");
        List<ObjectKey> stored = keys(100);
        assertThat(adapter.store(stored, slices(100, (byte) 0x33)).get(30, TimeUnit.SECONDS).allOk()).isTrue();
        List<L1Slice> targets = slices(600, (byte) 0);
        List<CompletableFuture<BatchResult>> futures = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ObjectKey key = stored.get(i % stored.size());
            futures.add(switch (i % 3) {
                case 0 -> adapter.load(List.of(key), List.of(targets.get(i % targets.size())));
                case 1 -> adapter.lookupAndLock(List.of(key));
                default -> adapter.store(keys(1), List.of(targets.get(i % targets.size())));
            });
        }
        long start = System.nanoTime();
        adapter.close();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        for (CompletableFuture<BatchResult> future : futures) {
            try {
                future.get(60, TimeUnit.SECONDS);
                ok.incrementAndGet();
            } catch (java.util.concurrent.ExecutionException e) {
                assertThat(e.getCause()).hasMessage("mooncake_store adapter 'closing' is closed");
                closed.incrementAndGet();
            }
        }
        assertThat(ok.get() + closed.get()).isEqualTo(1000);
        assertThat(closed.get()).isPositive();
        System.out.printf("[faults] close with 1000 in flight: all completed %d ms after close(): %d ok, %d closed%n",
                Duration.ofNanos(System.nanoTime() - start).toMillis(), ok.get(), closed.get());
    }
}
