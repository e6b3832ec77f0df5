package io.kvtier.mooncake.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StoreThreadPriorityTest {

    @Test
    void storesRunOnThreadsOfTheirOwnAtALowerPriorityEvenWithoutAStoreLane() throws Exception {
        WorkerLanes lanes = new WorkerLanes("nice", 2, Map.of());
        try {
            assertThat(lanes.threadCounts()).containsEntry("store", 2).containsEntry(WorkerLanes.SHARED, 2);
            int store = niceOn(lanes, Lane.STORE);
            for (Lane other : new Lane[] {Lane.LOOKUP, Lane.LOAD, Lane.DELETE}) {
                assertThat(store).as("a store thread against a %s thread", other)
                        .isEqualTo(Math.min(19, niceOn(lanes, other) + WorkerLanes.STORE_NICE));
            }
        } finally {
            lanes.shutdown();
            assertThat(lanes.awaitTermination(System.nanoTime() + TimeUnit.SECONDS.toNanos(10))).isTrue();
        }
    }

    @Test
    void aStoreLaneOfPerOpWorkersGetsItsSize() {
        WorkerLanes lanes = new WorkerLanes("nice", 2, Map.of(Lane.STORE, 3, Lane.LOOKUP, 1, Lane.LOAD, 1, Lane.DELETE, 1));
        try {
            assertThat(lanes.threadCounts()).containsOnly(Map.entry("lookup", 1), Map.entry("load", 1),
                    Map.entry("store", 3), Map.entry("delete", 1));
        } finally {
            lanes.shutdown();
        }
    }

    @Test
    void aThreadStartedByALoweredOneIsLoweredFromTheProcessNotFromItsCreator() throws Exception {
        int process = callingThreadNice();
        AtomicInteger child = new AtomicInteger(Integer.MIN_VALUE);
        Thread creator = new Thread(() -> {
            ThreadPriority.lowerCallingThread(WorkerLanes.STORE_NICE);
            Thread started = new Thread(() -> {
                ThreadPriority.lowerCallingThread(WorkerLanes.STORE_NICE);
                child.set(callingThreadNice());
            });
            started.start();
            try {
                started.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        creator.start();
        creator.join();
        assertThat(child.get()).isEqualTo(Math.min(19, process + WorkerLanes.STORE_NICE));
    }

    /** The nice value of a thread of {@code lane}, read by that thread. */
    private static int niceOn(WorkerLanes lanes, Lane lane) throws Exception {
        CompletableFuture<Integer> nice = new CompletableFuture<>();
        lanes.execute(lane, () -> nice.complete(callingThreadNice()));
        return nice.get(10, TimeUnit.SECONDS);
    }

    /** Field 19 of proc(5)'s stat, counted after the command name, which may hold spaces. */
    private static int callingThreadNice() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[19 - 3]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
