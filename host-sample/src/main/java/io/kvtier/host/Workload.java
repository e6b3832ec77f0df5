package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.BatchTimeoutException;
import io.kvtier.hostlib.L1Arena;
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
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * The run workload for one instance, repeated for a number of passes: store chunks of seeded
 * random bytes from L1, look them up together with keys known to be missing, load them into
 * fresh L1 slices and verify them byte for byte, delete them, and look them up again. Each pass
 * uses keys of its own over the same L1 slices, so later passes show the steady state.
 */
final class Workload {
    static final String MODEL = "kvtier-run";

    record Options(int chunks, int chunkSize, int batch, int inFlight, int passes) {}

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

    /** Runs every pass on {@code adapter}, with slices taken from the arena, which the caller has reset. */
    RunReport run(String name, String type, L2Adapter adapter) {
        RunReport report = new RunReport(name, type, options);
        long runId = System.nanoTime();
        List<L1Slice> sources = new ArrayList<>(options.chunks());
        for (int i = 0; i < options.chunks(); i++) {
            L1Slice slice = arena.allocate(options.chunkSize());
            fill(slice.buffer(), runId + i);
            sources.add(slice);
        }
        List<L1Slice> targets = new ArrayList<>(options.chunks());
        for (int i = 0; i < options.chunks(); i++) {
            targets.add(arena.allocate(options.chunkSize()));
        }
        FailurePacer pacer = new FailurePacer();
        for (int pass = 1; pass <= options.passes(); pass++) {
            report.passes.add(runPass(name, adapter, pacer, runId + pass * (long) (options.chunks() + batchCount()),
                    pass, sources, targets));
        }
        return report;
    }

    private PassReport runPass(String name, L2Adapter adapter, FailurePacer pacer, long passId, int pass,
                               List<L1Slice> sources, List<L1Slice> targets) {
        PassReport report = new PassReport(pass, options.chunks());
        report.copyNanos = copy(sources, targets);
        targets.forEach(L1Arena::zero);  // a load that writes nothing must not verify against an earlier pass
        List<ObjectKey> keys = keys(passId, 0, options.chunks());
        List<ObjectKey> missing = keys(passId, options.chunks(), batchCount());
        String label = options.passes() == 1 ? name : name + " pass " + pass;

        IntUnaryOperator keysOf = b -> slice(keys, b).size();
        report.storeNanos = phase(pacer, label, name, "store", report.store, keysOf,
                b -> adapter.store(slice(keys, b), slice(sources, b)),
                (b, result) -> report.countStore(result));

        IntFunction<CompletableFuture<BatchResult>> lookup = b -> {
            List<ObjectKey> batch = new ArrayList<>(slice(keys, b));
            batch.add(missing.get(b));
            return adapter.lookupAndLock(batch);
        };
        report.lookupNanos = phase(pacer, label, name, "lookup", report.lookup, b -> keysOf.applyAsInt(b) + 1,
                lookup, (b, result) -> report.countLookup(result, result.size() - 1));
        adapter.unlock(keys);

        // Verified after the phase, so that its time is the adapter's alone.
        BatchResult[] loaded = new BatchResult[batchCount()];
        report.loadNanos = phase(pacer, label, name, "load", report.load, keysOf,
                b -> adapter.load(slice(keys, b), slice(targets, b)), (b, result) -> loaded[b] = result);
        for (int b = 0; b < loaded.length; b++) {
            List<L1Slice> src = slice(sources, b);
            List<L1Slice> dst = slice(targets, b);
            report.countLoadErrors(loaded[b]);
            for (int i = 0; i < loaded[b].size(); i++) {
                report.countLoad(loaded[b].get(i), src.get(i).buffer().equals(dst.get(i).buffer()));
            }
        }

        phase(pacer, label, name, "delete", report.delete, keysOf, b -> adapter.delete(slice(keys, b)),
                (b, result) -> report.countDelete(result));
        phase(pacer, label, name, "recheck", new Latencies(), keysOf, b -> adapter.lookupAndLock(slice(keys, b)),
                (b, result) -> report.countRecheck(result));
        adapter.unlock(keys);
        return report;
    }

    /** A plain copy of every source into its target: the limit that an in-process tier can approach. */
    private static long copy(List<L1Slice> sources, List<L1Slice> targets) {
        long start = System.nanoTime();
        for (int i = 0; i < sources.size(); i++) {
            targets.get(i).buffer().duplicate().clear().put(sources.get(i).buffer().duplicate().clear());
        }
        return System.nanoTime() - start;
    }

    /**
     * Sends a phase's batches, {@code inFlight} at once. A batch that fails as a whole counts as an
     * error of each of its keys ({@code keys} of them), and the run goes on, as it does past any
     * error; only a batch that outlived the host's bound stops it: the adapter may still write into
     * slices the next pass reuses. While the instance fails every key, batches go out at most one
     * per {@link FailurePacer#PAUSE_NANOS}.
     */
    private long phase(FailurePacer pacer, String label, String name, String op, Latencies latencies,
                       IntUnaryOperator keys, IntFunction<CompletableFuture<BatchResult>> submit,
                       BiConsumer<Integer, BatchResult> check) {
        com.codahale.metrics.Timer timer = metrics.timer(MetricRegistry.name("kvtier", "run", name, op));
        int total = batchCount();
        Semaphore window = new Semaphore(options.inFlight());
        List<CompletableFuture<Void>> pending = new ArrayList<>(total);
        long start = System.nanoTime();
        for (int b = 0; b < total; b++) {
            window.acquireUninterruptibly();
            pacer.pause(FailurePacer.PAUSE_NANOS);
            int batch = b;
            long submitted = System.nanoTime();
            pending.add(submit.apply(batch).whenComplete((result, error) -> {
                long elapsed = System.nanoTime() - submitted;
                latencies.record(elapsed);
                timer.update(elapsed, TimeUnit.NANOSECONDS);
                pacer.batchEnded(error != null || FailurePacer.everyKeyFailed(result));
                window.release();
            }).exceptionally(error -> failedWhole(error, keys.applyAsInt(batch)))
                    .thenAccept(result -> check.accept(batch, result)));
            progress.update(label, op, b + 1, total);
        }
        for (CompletableFuture<Void> future : pending) {
            try {
                future.join();
            } catch (CompletionException e) {
                throw new IllegalStateException(label + ": " + op + " batch failed: " + ErrorGroup.classify(e).message(), e);
            }
        }
        return System.nanoTime() - start;
    }

    private static BatchResult failedWhole(Throwable error, int keys) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof BatchTimeoutException overdue) {
            throw overdue;
        }
        return ErrorGroup.failedWhole(cause, keys);
    }

    private int batchCount() {
        return (options.chunks() + options.batch() - 1) / options.batch();
    }

    private <T> List<T> slice(List<T> all, int batch) {
        int from = batch * options.batch();
        return all.subList(from, Math.min(all.size(), from + options.batch()));
    }

    /** Keys unique to this pass, so that a shared store never answers with an earlier pass's data. */
    private static List<ObjectKey> keys(long passId, int first, int count) {
        List<ObjectKey> keys = new ArrayList<>(count);
        for (int i = first; i < first + count; i++) {
            byte[] hash = ByteBuffer.allocate(16).putLong(passId).putLong(i).array();
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


    /** One instance's passes, the first of which is the cold one. */
    static final class RunReport {
        final String name;
        final String type;
        final Options options;
        final List<PassReport> passes = new ArrayList<>();
        /** The adapter's own metrics at the end of its run. */
        Map<String, Object> metrics = Map.of();

        RunReport(String name, String type, Options options) {
            this.name = name;
            this.type = type;
            this.options = options;
        }

        long errors() {
            return passes.stream().mapToLong(PassReport::errors).sum();
        }

        Map<String, Long> errorsByKind() {
            Map<String, Long> all = new TreeMap<>();
            passes.forEach(p -> p.errorsByKind.forEach((group, n) -> all.merge(group, n, Long::sum)));
            return all;
        }

        boolean passed() {
            return passes.stream().allMatch(PassReport::passed);
        }

        long bytes() {
            return (long) options.chunks() * options.chunkSize();
        }
    }

    /** Results are checked as batches complete; this tally is read after every batch has. */
    static final class PassReport {
        final int pass;
        final int chunks;
        final Latencies store = new Latencies();
        final Latencies lookup = new Latencies();
        final Latencies load = new Latencies();
        final Latencies delete = new Latencies();
        long copyNanos;
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
        long recheckErrors;
        /** Errored keys by kind and code ({@link ErrorGroup}). */
        final Map<String, Long> errorsByKind = new TreeMap<>();

        PassReport(int pass, int chunks) {
            this.pass = pass;
            this.chunks = chunks;
        }

        boolean cold() {
            return pass == 1;
        }

        private void noteErrors(BatchResult result) {
            ErrorGroup.count(result).forEach((group, n) -> errorsByKind.merge(group, n, Long::sum));
        }

        synchronized void countStore(BatchResult result) {
            noteErrors(result);
            stored += result.count(KeyResult.OK);
            storeErrors += result.count(KeyResult.ERROR) + result.count(KeyResult.MISSING);
        }

        /** The keys before {@code firstMissing} were stored; the rest never were. */
        synchronized void countLookup(BatchResult result, int firstMissing) {
            noteErrors(result);
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

        synchronized void countLoadErrors(BatchResult result) {
            noteErrors(result);
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
            noteErrors(result);
            deleted += result.count(KeyResult.OK);
            deleteErrors += result.size() - result.count(KeyResult.OK);
        }

        /** An error is no sign that a key survived its delete: it counts as an error. */
        synchronized void countRecheck(BatchResult result) {
            noteErrors(result);
            survivedDelete += result.count(KeyResult.OK);
            recheckErrors += result.count(KeyResult.ERROR);
        }

        synchronized long errors() {
            return storeErrors + lookupErrors + notLoaded + corrupted + deleteErrors + recheckErrors;
        }

        /** Every chunk verified, every missing key reported missing, nothing left after delete. */
        synchronized boolean passed() {
            return verified == chunks && unexpectedLookups == 0 && errors() == 0 && survivedDelete == 0;
        }
    }
}
