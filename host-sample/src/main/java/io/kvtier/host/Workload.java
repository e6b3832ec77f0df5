package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;

/**
 * The run workload for one instance: store chunks of seeded random bytes from L1, look them up
 * together with keys known to be missing, load them into fresh L1 slices and verify them byte
 * for byte, delete them, and look them up again.
 */
final class Workload {
    /** Batches in flight at once per phase, so that adapters with several workers are kept busy. */
    static final int IN_FLIGHT = 4;
    static final String MODEL = "kvtier-run";

    record Options(int chunks, int chunkSize, int batch) {}

    private final L1Arena arena;
    private final Options options;
    private final MetricRegistry metrics;
    private final Progress progress;

    Workload(L1Arena arena, Options options, MetricRegistry metrics, Progress progress) {
        this.arena = arena;
        this.options = options;
        this.metrics = metrics;
        this.progress = progress;
    }

    /** L1 bytes the workload needs: a source and a destination slice per chunk, plus alignment slack. */
    static long l1BytesNeeded(Options options) {
        long perChunk = (options.chunkSize() + L1Arena.DEFAULT_ALIGNMENT - 1) / L1Arena.DEFAULT_ALIGNMENT
                * L1Arena.DEFAULT_ALIGNMENT;
        return 2 * perChunk * options.chunks();
    }

    RunReport run(String name, String type, L2Adapter adapter) {
        RunReport report = new RunReport(name, type, options.chunks(), options.chunkSize());
        long runId = System.nanoTime();
        List<ObjectKey> keys = keys(runId, 0, options.chunks());
        List<ObjectKey> missing = keys(runId, options.chunks(), batchCount());
        List<L1Slice> sources = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            L1Slice slice = arena.allocate(options.chunkSize());
            fill(slice.buffer(), runId + i);
            sources.add(slice);
        }
        List<L1Slice> targets = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            targets.add(arena.allocate(options.chunkSize()));
        }

        report.storeNanos = phase(name, "store", report.store,
                b -> adapter.store(slice(keys, b), slice(sources, b)),
                (b, result) -> report.countStore(result));

        report.lookupNanos = phase(name, "lookup", report.lookup, b -> {
            List<ObjectKey> batch = new ArrayList<>(slice(keys, b));
            batch.add(missing.get(b));
            return adapter.lookupAndLock(batch);
        }, (b, result) -> report.countLookup(result, result.size() - 1));
        adapter.unlock(keys);

        report.loadNanos = phase(name, "load", report.load,
                b -> adapter.load(slice(keys, b), slice(targets, b)),
                (b, result) -> {
                    List<L1Slice> src = slice(sources, b);
                    List<L1Slice> dst = slice(targets, b);
                    for (int i = 0; i < result.size(); i++) {
                        report.countLoad(result.get(i), src.get(i).buffer().equals(dst.get(i).buffer()));
                    }
                });

        phase(name, "delete", report.delete, b -> adapter.delete(slice(keys, b)), (b, result) -> report.countDelete(result));
        phase(name, "recheck", report.lookup, b -> adapter.lookupAndLock(slice(keys, b)),
                (b, result) -> report.countRecheck(result));
        adapter.unlock(keys);
        return report;
    }

    private long phase(String name, String op, Latencies latencies, IntFunction<CompletableFuture<BatchResult>> submit,
                       BiConsumer<Integer, BatchResult> check) {
        com.codahale.metrics.Timer timer = metrics.timer(MetricRegistry.name("kvtier", "run", name, op));
        int total = batchCount();
        Semaphore window = new Semaphore(IN_FLIGHT);
        List<CompletableFuture<Void>> pending = new ArrayList<>(total);
        long start = System.nanoTime();
        for (int b = 0; b < total; b++) {
            window.acquireUninterruptibly();
            int batch = b;
            long submitted = System.nanoTime();
            pending.add(submit.apply(batch).whenComplete((result, error) -> {
                long elapsed = System.nanoTime() - submitted;
                latencies.record(elapsed);
                timer.update(elapsed, TimeUnit.NANOSECONDS);
                window.release();
            }).thenAccept(result -> check.accept(batch, result)));
            progress.update(name, op, b + 1, total);
        }
        for (CompletableFuture<Void> future : pending) {
            try {
                future.join();
            } catch (CompletionException e) {
                throw new IllegalStateException(name + ": " + op + " batch failed: " + rootMessage(e), e);
            }
        }
        return System.nanoTime() - start;
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    private int batchCount() {
        return (options.chunks() + options.batch() - 1) / options.batch();
    }

    private <T> List<T> slice(List<T> all, int batch) {
        int from = batch * options.batch();
        return all.subList(from, Math.min(all.size(), from + options.batch()));
    }

    /** Keys unique to this run, so that a shared store never answers with an earlier run's data. */
    private static List<ObjectKey> keys(long runId, int first, int count) {
        List<ObjectKey> keys = new ArrayList<>(count);
        for (int i = first; i < first + count; i++) {
            byte[] hash = ByteBuffer.allocate(16).putLong(runId).putLong(i).array();
            keys.add(new ObjectKey(hash, MODEL, 0));
        }
        return keys;
    }

    private static void fill(ByteBuffer buffer, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ByteBuffer view = buffer.duplicate().clear();
        while (view.remaining() >= Long.BYTES) {
            view.putLong(random.nextLong());
        }
        while (view.hasRemaining()) {
            view.put((byte) random.nextInt());
        }
    }

    /** Results are checked as batches complete; this tally is read after every batch has. */
    static final class RunReport {
        final String name;
        final String type;
        final int chunks;
        final int chunkSize;
        final Latencies store = new Latencies();
        final Latencies lookup = new Latencies();
        final Latencies load = new Latencies();
        final Latencies delete = new Latencies();
        long storeNanos;
        long lookupNanos;
        long loadNanos;
        long stored;
        long storeErrors;
        long hits;
        long misses;
        long lookupErrors;
        long unexpectedLookups;
        long verified;
        long corrupted;
        long notLoaded;
        long deleted;
        long deleteErrors;
        long survivedDelete;
        /** The adapter's own metrics at the end of its run. */
        Map<String, Object> metrics = Map.of();

        RunReport(String name, String type, int chunks, int chunkSize) {
            this.name = name;
            this.type = type;
            this.chunks = chunks;
            this.chunkSize = chunkSize;
        }

        synchronized void countStore(BatchResult result) {
            stored += result.count(KeyResult.OK);
            storeErrors += result.count(KeyResult.ERROR) + result.count(KeyResult.MISSING);
        }

        /** The keys before {@code firstMissing} were stored; the rest never were. */
        synchronized void countLookup(BatchResult result, int firstMissing) {
            for (int i = 0; i < result.size(); i++) {
                KeyResult r = result.get(i);
                if (r == KeyResult.OK) {
                    hits++;
                } else if (r == KeyResult.MISSING) {
                    misses++;
                } else {
                    lookupErrors++;
                }
                boolean expected = i < firstMissing ? r == KeyResult.OK : r == KeyResult.MISSING;
                if (!expected) {
                    unexpectedLookups++;
                }
            }
        }

        synchronized void countLoad(KeyResult result, boolean sameBytes) {
            if (result != KeyResult.OK) {
                notLoaded++;
            } else if (sameBytes) {
                verified++;
            } else {
                corrupted++;
            }
        }

        synchronized void countDelete(BatchResult result) {
            deleted += result.count(KeyResult.OK);
            deleteErrors += result.size() - result.count(KeyResult.OK);
        }

        synchronized void countRecheck(BatchResult result) {
            survivedDelete += result.size() - result.count(KeyResult.MISSING);
        }

        synchronized long errors() {
            return storeErrors + lookupErrors + notLoaded + corrupted + deleteErrors;
        }

        /** Every chunk verified, every missing key reported missing, nothing left after delete. */
        synchronized boolean passed() {
            return verified == chunks && unexpectedLookups == 0 && errors() == 0 && survivedDelete == 0;
        }

        long bytes() {
            return (long) chunks * chunkSize;
        }

        double gigabytesPerSecond(long nanos) {
            return nanos == 0 ? 0 : bytes() / (double) nanos;
        }
    }
}
