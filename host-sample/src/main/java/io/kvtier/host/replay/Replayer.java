package io.kvtier.host.replay;

import io.kvtier.host.ErrorGroup;
import io.kvtier.host.FailurePacer;
import io.kvtier.host.soak.ObjectContent;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyOutcome;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

/**
 * Replays a trace through one adapter as an LMCache-style host serves requests: look up the
 * request's blocks and take the longest run of leading ones found, load that prefix into L1 and
 * verify every byte, unlock, then store the blocks after the usable prefix. Requests start in
 * arrival order, at most {@code concurrency} at once, either as fast as they complete (closed
 * loop) or at their trace times scaled by the speed (open loop).
 */
final class Replayer {
    static final String MODEL = "kvtier-replay";
    /** A block's bytes derive from its id alone, so a block stored by an earlier run verifies too. */
    private static final ObjectContent CONTENT = new ObjectContent(0x6b76746965725250L);
    private static final int DELETE_BATCH = 1024;

    /** @param speed times real time in an open loop; 0 for a closed loop */
    record Settings(int blockBytes, double speed, int concurrency) {
        boolean closedLoop() {
            return speed == 0;
        }
    }

    private final List<Trace.Request> requests;
    private final Settings settings;
    private final L1Arena arena;

    Replayer(List<Trace.Request> requests, Settings settings, L1Arena arena) {
        this.requests = requests;
        this.settings = settings;
        this.arena = arena;
    }

    /** L1 bytes a replay needs: each request in flight has a slice for every block of the longest request. */
    static long l1BytesNeeded(List<Trace.Request> requests, Settings settings) {
        long aligned = (settings.blockBytes() + L1Arena.DEFAULT_ALIGNMENT - 1) / L1Arena.DEFAULT_ALIGNMENT
                * L1Arena.DEFAULT_ALIGNMENT;
        return aligned * longest(requests) * settings.concurrency();
    }

    private static int longest(List<Trace.Request> requests) {
        return requests.stream().mapToInt(r -> r.blocks().length).max().orElse(0);
    }

    /** Replays every request on {@code adapter}, with slices from the arena, which this resets first. */
    ReplayReport replay(String name, String type, L2Adapter adapter, long capacityBlocks, int[] lruHits,
                        int[] maxHits) {
        ReplayReport report = new ReplayReport(name, type, requests, settings, capacityBlocks, lruHits, maxHits);
        arena.reset();
        BlockingQueue<List<L1Slice>> slots = new ArrayBlockingQueue<>(settings.concurrency());
        int longest = longest(requests);
        for (int s = 0; s < settings.concurrency(); s++) {
            List<L1Slice> slot = new ArrayList<>(longest);
            for (int b = 0; b < longest; b++) {
                slot.add(arena.allocate(settings.blockBytes()));
            }
            slots.add(slot);
        }
        FailurePacer pacer = new FailurePacer();
        deleteBefore(adapter, pacer, report);
        ExecutorService workers = Executors.newFixedThreadPool(settings.concurrency(), daemon(name));
        Semaphore free = new Semaphore(settings.concurrency());
        List<CompletableFuture<Void>> served = new ArrayList<>(requests.size());
        long start = System.nanoTime();
        long first = requests.get(0).timestampMs();
        try {
            for (int i = 0; i < requests.size(); i++) {
                Trace.Request request = requests.get(i);
                int index = i;
                long due = settings.closedLoop() ? start
                        : start + (long) ((request.timestampMs() - first) * 1e6 / settings.speed());
                for (long wait; (wait = due - System.nanoTime()) > 0; ) {
                    LockSupport.parkNanos(wait);
                }
                free.acquireUninterruptibly();
                if (!settings.closedLoop()) {
                    report.lag.record(System.nanoTime() - due);
                }
                served.add(CompletableFuture.runAsync(() -> {
                    List<L1Slice> slot = slots.remove();
                    try {
                        serve(adapter, pacer, index, request, slot, report);
                    } finally {
                        slots.add(slot);
                        free.release();
                    }
                }, workers));
            }
            CompletableFuture.allOf(served.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw new IllegalStateException(name + ": a request failed: " + ErrorGroup.classify(e).message(), e);
        } finally {
            workers.shutdownNow();
        }
        report.finished(System.nanoTime() - start);
        return report;
    }

    /** The replay starts from an empty cache, as the oracles do, even when a shared store kept an earlier run's blocks. */
    private static void deleteBefore(L2Adapter adapter, FailurePacer pacer, ReplayReport report) {
        List<ObjectKey> keys = report.requests.stream().flatMapToInt(r -> IntStream.of(r.blocks())).distinct()
                .mapToObj(Replayer::key).toList();
        for (int from = 0; from < keys.size(); from += DELETE_BATCH) {
            List<ObjectKey> batch = keys.subList(from, Math.min(keys.size(), from + DELETE_BATCH));
            pacer.pause(FailurePacer.PAUSE_NANOS);
            BatchResult deleted = await(pacer, adapter.delete(batch), batch.size());
            report.countErrors("delete", deleted.outcomes());
            report.countDeletedBefore(deleted.count(KeyResult.OK));
        }
    }

    /**
     * Serves one request. Each of its batches waits first while the instance fails every key
     * ({@link FailurePacer}), outside the times recorded: a replay against a master that is gone
     * would otherwise run through the trace failing as fast as it can.
     */
    private void serve(L2Adapter adapter, FailurePacer pacer, int index, Trace.Request request, List<L1Slice> slot,
                       ReplayReport report) {
        int[] blocks = request.blocks();
        List<ObjectKey> keys = IntStream.of(blocks).mapToObj(Replayer::key).toList();
        pacer.pause(FailurePacer.PAUSE_NANOS);
        long started = System.nanoTime();
        BatchResult found = await(pacer, adapter.lookupAndLock(keys), keys.size());
        long looked = System.nanoTime();
        report.lookup.record(looked - started);
        report.countErrors("lookup", found.outcomes());
        int prefix = 0;
        while (prefix < found.size() && found.get(prefix) == KeyResult.OK) {
            prefix++;
        }
        int usable = 0;
        try {
            if (prefix > 0) {
                List<L1Slice> targets = slot.subList(0, prefix);
                // A load that answers OK but writes nothing must not verify against a slot's earlier
                // bytes. Untimed, as in Mooncake's C client's replay: the host's cost, not the tier's.
                targets.forEach(L1Arena::zero);
                pacer.pause(FailurePacer.PAUSE_NANOS);
                long loading = System.nanoTime();
                BatchResult loaded = await(pacer, adapter.load(keys.subList(0, prefix), targets), prefix);
                long fetched = System.nanoTime();
                report.load.record(fetched - loading);
                report.prefixFetch.record(looked - started + fetched - loading);
                report.countErrors("load", loaded.outcomes());
                usable = verify(blocks, loaded, targets, report);
            } else {
                report.prefixFetch.record(looked - started);
            }
        } finally {
            List<ObjectKey> locked = new ArrayList<>();
            for (int i = 0; i < found.size(); i++) {
                if (found.get(i) == KeyResult.OK) {
                    locked.add(keys.get(i));
                }
            }
            adapter.unlock(locked);
        }
        report.hits[index] = usable;
        if (usable < blocks.length) {
            List<L1Slice> sources = slot.subList(usable, blocks.length);
            for (int i = usable; i < blocks.length; i++) {
                CONTENT.fill(slot.get(i).buffer(), 0, blocks[i], 1);
            }
            pacer.pause(FailurePacer.PAUSE_NANOS);
            long storing = System.nanoTime();
            BatchResult stored = await(pacer, adapter.store(keys.subList(usable, blocks.length), sources),
                    blocks.length - usable);
            report.store.record(System.nanoTime() - storing);
            report.countErrors("store", stored.outcomes());
            report.countMoved(0, stored.newBytes());
        }
    }

    /**
     * Checks the loaded prefix, block by block. @return its leading blocks that loaded and
     * verified: a model can use no block after one that is missing or wrong.
     */
    private static int verify(int[] blocks, BatchResult loaded, List<L1Slice> targets, ReplayReport report) {
        int usable = 0;
        boolean broken = false;
        long bytes = 0;
        for (int i = 0; i < loaded.size(); i++) {
            KeyOutcome outcome = loaded.outcomes().get(i);
            boolean good = false;
            if (outcome.result() == KeyResult.OK) {
                bytes += outcome.bytes();
                good = CONTENT.check(targets.get(i).buffer(), 0, blocks[i], 1) == ObjectContent.Verdict.VERIFIED;
                if (!good) {
                    report.countCorrupted();
                }
            } else if (outcome.result() == KeyResult.MISSING) {
                report.countFoundThenMissing();
            }
            broken |= !good;
            if (!broken) {
                usable++;
            }
        }
        report.countMoved(bytes, 0);
        return usable;
    }

    /**
     * A batch that failed as a whole is an error of each of its keys, and the host carries on as with
     * any error. The pacer learns whether every key failed.
     */
    private static BatchResult await(FailurePacer pacer, CompletableFuture<BatchResult> batch, int keys) {
        BatchResult result;
        try {
            result = batch.join();
        } catch (CompletionException e) {
            result = ErrorGroup.failedWhole(e, keys);
        }
        pacer.batchEnded(FailurePacer.everyKeyFailed(result));
        return result;
    }

    /** The wire key of a block: its id, 8 bytes big-endian, as the chunk hash. */
    private static ObjectKey key(int block) {
        return new ObjectKey(ByteBuffer.allocate(Long.BYTES).putLong(block).array(), MODEL, 0);
    }

    private static ThreadFactory daemon(String instance) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "kvtier-replay-" + instance + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
