package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A storage node that serves large reads, two at once, is busy, not silent: its bytes keep coming,
 * and it must not be made suspect (reads would then skip the only node that holds the keys). On
 * loopback, one instance holds the cluster's segment and another reads 128 MiB batches from it.
 * Which reads make a node suspect is StorageNodes' rule, tested on a clock of its own
 * (StorageNodesTest); here the real connector must not mark a node whose reads all complete,
 * whatever this machine's speed: {@code suspect_after_ms} is generous (the rule's bound for a heard
 * node is three times it, far above any round measured, 188-712 ms), and a round that outlasts
 * {@code suspect_after_ms} is kept clear only by the node being heard.
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealBusyNodeTest {
    private static final int CHUNK = 4 << 20;
    private static final int KEYS = 32;
    private static final int SUSPECT_AFTER_MS = 2000;
    private static final int ROUNDS = 10;

    @Test
    void aNodeServingLargeReadsIsNotMadeSuspect(@TempDir Path logs) throws Exception {
        try (MooncakeMaster master = MooncakeMaster.startOwn(logs);
             L1Arena arena = L1Arena.allocate(4L * KEYS * CHUNK, L1Arena.DEFAULT_ALIGNMENT, true)) {
            L2Adapter node = RealInstances.create(master.address(), arena, "node", 2L * KEYS * CHUNK, "{}");
            L2Adapter reader = RealInstances.create(master.address(), arena, "reader", 0,
                    "{\"suspect_after_ms\":" + SUSPECT_AFTER_MS + ",\"batch_timeout_ms\":30000}");
            try {
                List<ObjectKey> keys = keys();
                List<L1Slice> objects = objects(arena);
                assertThat(reader.store(keys, objects).join().allOk()).as("stored").isTrue();
                List<L1Slice> first = empty(arena);
                List<L1Slice> second = empty(arena);
                long longestMs = 0;
                for (int round = 0; round < ROUNDS; round++) {
                    long start = System.nanoTime();
                    CompletableFuture<BatchResult> a = reader.load(keys, first);
                    CompletableFuture<BatchResult> b = reader.load(keys, second);
                    BatchResult loadedA = a.join();
                    BatchResult loadedB = b.join();
                    longestMs = Math.max(longestMs, (System.nanoTime() - start) / 1_000_000);
                    assertThat(loadedA.allOk() && loadedB.allOk()).as("round %d: every key loaded (%s, %s)", round,
                            loadedA.firstError(), loadedB.firstError()).isTrue();
                    assertThat(reader.status().get("suspect_nodes")).as("suspect nodes after round %d", round)
                            .isEqualTo(List.of());
                }
                for (int i = 0; i < KEYS; i++) {
                    assertThat(second.get(i).buffer()).as("key %d", i).isEqualTo(objects.get(i).buffer());
                }
                System.out.printf("[busy node] %d rounds of two %d MiB loads, the longest %d ms, suspect_after_ms %d: "
                        + "no suspect node%n", ROUNDS, KEYS * (CHUNK >> 20), longestMs, SUSPECT_AFTER_MS);
            } finally {
                reader.close();
                node.close();
            }
        }
    }

    private static List<ObjectKey> keys() {
        List<ObjectKey> keys = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            byte[] hash = ByteBuffer.allocate(12).putLong(ProcessHandle.current().pid()).putInt(i).array();
            keys.add(new ObjectKey(hash, "kvtier-busy-node", 0));
        }
        return keys;
    }

    private static List<L1Slice> objects(L1Arena arena) {
        Random random = new Random(KEYS);
        byte[] bytes = new byte[CHUNK];
        List<L1Slice> slices = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            random.nextBytes(bytes);
            L1Slice slice = arena.allocate(CHUNK);
            slice.buffer().duplicate().clear().put(bytes);
            slices.add(slice);
        }
        return slices;
    }

    private static List<L1Slice> empty(L1Arena arena) {
        List<L1Slice> slices = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            slices.add(arena.allocate(CHUNK));
        }
        return slices;
    }
}
