package io.kvtier.host.soak;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.host.Instances;
import io.kvtier.host.L1Arena;
import io.kvtier.host.MetricsSnapshot;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The soak: worker threads run a weighted mix of batches on random instances and keys, each batch
 * on keys it has claimed, and judge every per-key result against what the soak knows about the key.
 * A monitor polls each instance's health every second, closes settled fault windows, and prints
 * progress.
 */
final class Soak {
    static final String MODEL = "kvtier-soak";
    /** How long the end of the soak waits for batches still in flight. */
    private static final long GRACE_SECONDS = 60;

    /** @param metricsPort where to serve Prometheus text on 127.0.0.1 (0 = any free port), or null for nowhere */
    record Options(long durationNanos, int threads, Mix mix, int chunkSize, int keys, int rate, int batch,
                   long progressIntervalNanos, long faultSettleNanos, long seed, Integer metricsPort) {}

    private final Options options;
    private final List<Target> targets;
    private final L1Arena arena;
    private final PrintWriter err;
    private final MetricRegistry metrics;
    private final ObjectContent content;
    private final List<ObjectKey[]> wireKeys = new ArrayList<>();
    private final RateLimiter limiter;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private volatile boolean stopping;
    private boolean stoppedEarly;
    private volatile long startNanos;
    private volatile int metricsPort = -1;

    /**
     * @param runId unique to this run (the seed only drives the choices), so a shared store never
     *              answers with a former run's objects
     */
    Soak(Options options, List<Target> targets, L1Arena arena, MetricRegistry metrics, PrintWriter err, long runId) {
        this.options = options;
        this.targets = targets;
        this.arena = arena;
        this.err = err;
        this.metrics = metrics;
        this.content = new ObjectContent(runId);
        this.limiter = new RateLimiter(options.rate());
        for (Target target : targets) {
            ObjectKey[] keys = new ObjectKey[options.keys()];
            for (int k = 0; k < keys.length; k++) {
                byte[] hash = ByteBuffer.allocate(16).putLong(runId).putInt(target.index).putInt(k).array();
                keys[k] = new ObjectKey(hash, MODEL, 0);
            }
            wireKeys.add(keys);
        }
    }

    /** One slice per key of a batch, per thread. */
    static long l1BytesNeeded(Options options) {
        long perChunk = (options.chunkSize() + L1Arena.DEFAULT_ALIGNMENT - 1) / L1Arena.DEFAULT_ALIGNMENT
                * L1Arena.DEFAULT_ALIGNMENT;
        return perChunk * options.batch() * options.threads();
    }

    /** The port of the metrics endpoint once it listens; -1 before, or without one. */
    int metricsPort() {
        return metricsPort;
    }

    /** Ends the soak early: workers finish the batch they are in. */
    void stop() {
        stopRequested.countDown();
    }

    /** An external harness marks a fault it induces ({@code true}) or its end ({@code false}), on every instance. */
    void mark(boolean fault) {
        long now = System.nanoTime();
        for (Target target : targets) {
            if (fault) {
                target.faults.markFault(now);
            } else {
                target.faults.markRecovered(now);
            }
        }
    }

    SoakReport run() throws InterruptedException {
        List<List<L1Slice>> slices = new ArrayList<>();
        for (int t = 0; t < options.threads(); t++) {
            List<L1Slice> own = new ArrayList<>(options.batch());
            for (int i = 0; i < options.batch(); i++) {
                own.add(arena.allocate(options.chunkSize()));
            }
            slices.add(own);
        }
        SoakMetrics.register(metrics, targets);
        try (PrometheusEndpoint endpoint = options.metricsPort() == null ? null
                : PrometheusEndpoint.start(metrics, options.metricsPort())) {
            if (endpoint != null) {
                metricsPort = endpoint.port();
                err.println("kvtier: metrics on http://" + PrometheusEndpoint.HOST + ":" + endpoint.port() + "/metrics");
            }
            return run(slices);
        }
    }

    private SoakReport run(List<List<L1Slice>> slices) throws InterruptedException {
        startNanos = System.nanoTime();
        targets.forEach(this::pollHealth);
        SoakProgress progress = new SoakProgress(targets, err, startNanos);
        ScheduledExecutorService monitor = Executors.newScheduledThreadPool(2, daemon("kvtier-soak-monitor"));
        monitor.scheduleAtFixedRate(() -> targets.forEach(this::pollHealth), 1, 1, TimeUnit.SECONDS);
        monitor.scheduleAtFixedRate(progress::print, options.progressIntervalNanos(), options.progressIntervalNanos(),
                TimeUnit.NANOSECONDS);
        ExecutorService workers = Executors.newFixedThreadPool(options.threads(), daemon("kvtier-soak-worker"));
        List<Future<?>> running = new ArrayList<>();
        try {
            for (int t = 0; t < options.threads(); t++) {
                SplittableRandom random = new SplittableRandom(options.seed() + t * 0x9e3779b97f4a7c15L);
                List<L1Slice> own = slices.get(t);
                running.add(workers.submit(() -> work(random, own)));
            }
            stoppedEarly = stopRequested.await(options.durationNanos(), TimeUnit.NANOSECONDS);
            stopping = true;
            workers.shutdown();
            if (!workers.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS)) {
                err.println("kvtier: warning: batches still in flight " + GRACE_SECONDS
                        + " s after the soak ended; they are not counted");
            }
        } finally {
            workers.shutdownNow();
            monitor.shutdownNow();
        }
        long endNanos = System.nanoTime();
        for (Future<?> worker : running) {
            if (worker.isDone()) {
                try {
                    worker.get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("soak worker failed: " + e.getCause(), e.getCause());
                }
            }
        }
        targets.forEach(t -> t.faults.tick(endNanos));
        SoakReport report = new SoakReport(targets, startNanos, endNanos, stoppedEarly);
        // Taken before the instances close, which removes their gauges.
        targets.forEach(t -> report.adapterMetrics.put(t.name, MetricsSnapshot.of(metrics, Instances.metricPrefix(t.name))));
        return report;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    private void pollHealth(Target target) {
        long now = System.nanoTime();
        if (!target.pollHealth()) {
            target.faults.unhealthy(now);
        }
        target.faults.tick(now);
    }

    private void work(SplittableRandom random, List<L1Slice> slices) {
        try {
            operate(random, slices);
        } catch (RuntimeException | Error e) {
            stop(); // a broken soak must not run on for the rest of its duration
            throw e;
        }
    }

    private void operate(SplittableRandom random, List<L1Slice> slices) {
        while (!stopping) {
            limiter.acquire();
            Target target = targets.get(random.nextInt(targets.size()));
            Op op = options.mix().pick(random);
            int[] keys = target.book.claim(random, options.batch());
            if (keys.length == 0) {
                Thread.onSpinWait(); // every key is busy: a key space barely larger than the batches in flight
                continue;
            }
            try {
                switch (op) {
                    case STORE -> store(target, keys, slices);
                    case LOOKUP -> lookup(target, keys);
                    case LOAD -> load(target, keys, slices);
                    case DELETE -> delete(target, keys);
                }
            } finally {
                target.book.release(keys);
            }
        }
    }

    /**
     * Writes a new version of each key. A store of a key that exists keeps the first value, so keys
     * not known to be absent are deleted first (counted as deletes), and only those then absent are stored.
     */
    private void store(Target target, int[] keys, List<L1Slice> slices) {
        int[] notAbsent = select(target, keys, false);
        if (notAbsent.length > 0) {
            delete(target, notAbsent);
        }
        int[] absent = select(target, keys, true);
        if (absent.length == 0) {
            return;
        }
        long[] versions = new long[absent.length];
        List<L1Slice> sources = slices.subList(0, absent.length);
        for (int i = 0; i < absent.length; i++) {
            versions[i] = target.book.nextVersion(absent[i]);
            content.fill(sources.get(i).buffer(), target.index, absent[i], versions[i]);
        }
        OpStats stats = target.stats(Op.STORE);
        BatchResult result = call(target, Op.STORE, absent.length, () -> target.adapter.store(keys(target, absent), sources));
        long now = System.nanoTime();
        long okBytes = 0;
        for (int i = 0; i < absent.length; i++) {
            KeyResult outcome = result == null ? KeyResult.ERROR : result.get(i);
            if (outcome == KeyResult.OK) {
                stats.ok();
                okBytes += options.chunkSize();
                target.book.set(absent[i], new KeyBook.Entry(KeyBook.State.PRESENT, versions[i], now));
            } else {
                if (outcome == KeyResult.MISSING) {
                    stats.missing();
                }
                target.book.set(absent[i], new KeyBook.Entry(KeyBook.State.UNKNOWN, versions[i], 0));
            }
        }
        stats.batch(bucketTime(now), okBytes);
    }

    private void lookup(Target target, int[] keys) {
        List<ObjectKey> asked = keys(target, keys);
        OpStats stats = target.stats(Op.LOOKUP);
        BatchResult result = call(target, Op.LOOKUP, keys.length, () -> target.adapter.lookupAndLock(asked));
        // The soak holds no lock beyond its own batch; a failed batch may have taken some, and unknown keys are ignored.
        target.adapter.unlock(asked);
        if (result != null) {
            for (int i = 0; i < keys.length; i++) {
                KeyBook.Entry known = target.book.get(keys[i]);
                if (result.get(i) == KeyResult.OK) {
                    stats.ok();
                    if (known.state() == KeyBook.State.ABSENT) {
                        stats.phantom();
                    }
                } else if (result.get(i) == KeyResult.MISSING) {
                    stats.missing();
                    missingWhere(target, stats, keys[i], known);
                }
            }
        }
        stats.batch(bucketTime(System.nanoTime()), 0);
    }

    private void load(Target target, int[] keys, List<L1Slice> slices) {
        List<L1Slice> targetsInL1 = slices.subList(0, keys.length);
        targetsInL1.forEach(slice -> zero(slice.buffer())); // a load that writes nothing must not verify
        OpStats stats = target.stats(Op.LOAD);
        BatchResult result = call(target, Op.LOAD, keys.length, () -> target.adapter.load(keys(target, keys), targetsInL1));
        long now = System.nanoTime();
        long okBytes = 0;
        if (result != null) {
            for (int i = 0; i < keys.length; i++) {
                KeyBook.Entry known = target.book.get(keys[i]);
                if (result.get(i) == KeyResult.OK) {
                    stats.ok();
                    okBytes += options.chunkSize();
                    if (known.state() == KeyBook.State.ABSENT) {
                        stats.phantom();
                        continue;
                    }
                    ObjectContent.Verdict verdict = content.check(targetsInL1.get(i).buffer(), target.index, keys[i],
                            known.version());
                    if (verdict == ObjectContent.Verdict.VERIFIED) {
                        stats.verified();
                        if (known.state() == KeyBook.State.UNKNOWN) {
                            target.book.set(keys[i], new KeyBook.Entry(KeyBook.State.PRESENT, known.version(), now));
                        }
                    } else {
                        stats.corrupted(verdict);
                    }
                } else if (result.get(i) == KeyResult.MISSING) {
                    stats.missing();
                    missingWhere(target, stats, keys[i], known);
                }
            }
        }
        stats.batch(bucketTime(now), okBytes);
    }

    private void delete(Target target, int[] keys) {
        OpStats stats = target.stats(Op.DELETE);
        BatchResult result = call(target, Op.DELETE, keys.length, () -> target.adapter.delete(keys(target, keys)));
        for (int i = 0; i < keys.length; i++) {
            KeyBook.Entry known = target.book.get(keys[i]);
            KeyResult outcome = result == null ? KeyResult.ERROR : result.get(i);
            if (outcome == KeyResult.OK) {
                stats.ok();
                if (known.state() == KeyBook.State.ABSENT) {
                    stats.phantom();
                }
                target.book.set(keys[i], KeyBook.Entry.ABSENT);
            } else if (outcome == KeyResult.MISSING) {
                stats.missing();
                if (known.state() == KeyBook.State.PRESENT) {
                    stats.expectedPresentButMissing(target.faults.excuses(known.ackNanos()));
                }
                target.book.set(keys[i], KeyBook.Entry.ABSENT);
            } else if (known.state() != KeyBook.State.ABSENT) {
                // A failed delete may or may not have removed it; a delete cannot create a key that was absent.
                target.book.set(keys[i], new KeyBook.Entry(KeyBook.State.UNKNOWN, known.version(), 0));
            }
        }
        stats.batch(bucketTime(System.nanoTime()), 0);
    }

    /** Batches that end while the soak drains count in its last bucket, not in a sliver of a bucket after it. */
    private long bucketTime(long now) {
        return Math.min(now - startNanos, options.durationNanos() - 1);
    }

    /** A key believed stored was reported missing: lost, or missing after a fault; from now on it is unknown. */
    private static void missingWhere(Target target, OpStats stats, int key, KeyBook.Entry known) {
        if (known.state() == KeyBook.State.PRESENT) {
            stats.expectedPresentButMissing(target.faults.excuses(known.ackNanos()));
            target.book.set(key, new KeyBook.Entry(KeyBook.State.UNKNOWN, known.version(), 0));
        }
    }

    /**
     * Runs one batch and counts its errors by cause, each of which opens or extends a fault window.
     * @return null when the batch failed as a whole, which counts every key as an error of that failure
     */
    private BatchResult call(Target target, Op op, int keyCount, Supplier<CompletableFuture<BatchResult>> submit) {
        BatchResult result;
        try {
            result = submit.get().join();
        } catch (RuntimeException e) {
            error(target, op, keyCount, ErrorCause.of(e));
            return null;
        }
        if (result.size() != keyCount) {
            error(target, op, keyCount, "adapter answered " + result.size() + " results for " + keyCount + " keys");
            return null;
        }
        long errors = result.count(KeyResult.ERROR);
        if (errors > 0) {
            error(target, op, errors, ErrorCause.of(result.firstError()));
        }
        return result;
    }

    private static void error(Target target, Op op, long keys, String cause) {
        target.stats(op).errors(keys, cause);
        target.faults.errors(System.nanoTime(), keys, cause);
    }

    /** The keys whose known state is absent ({@code absent}) or not. */
    private static int[] select(Target target, int[] keys, boolean absent) {
        return java.util.Arrays.stream(keys)
                .filter(k -> (target.book.get(k).state() == KeyBook.State.ABSENT) == absent).toArray();
    }

    private List<ObjectKey> keys(Target target, int[] keys) {
        ObjectKey[] all = wireKeys.get(target.index);
        List<ObjectKey> list = new ArrayList<>(keys.length);
        for (int k : keys) {
            list.add(all[k]);
        }
        return list;
    }

    private static void zero(ByteBuffer buffer) {
        ByteBuffer view = buffer.duplicate().clear();
        while (view.remaining() >= Long.BYTES) {
            view.putLong(0);
        }
        while (view.hasRemaining()) {
            view.put((byte) 0);
        }
    }
}
