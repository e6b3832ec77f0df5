package io.kvtier.host.soak;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.host.FailurePacer;
import io.kvtier.host.MetricsSnapshot;
import io.kvtier.host.PrometheusEndpoint;
import io.kvtier.hostlib.Instances;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.L1Slice;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The soak's course: worker threads run operations drawn from the mix on random instances, each on
 * keys it has claimed first ({@link Operations} runs and judges them); a monitor polls each
 * instance's health every second, closes settled fault windows, and prints progress; the metrics
 * endpoint serves while it runs.
 */
final class Soak {
    /** How long the end of the soak waits for batches still in flight. */
    private static final long GRACE_SECONDS = 60;

    /**
     * @param metricsPort where to serve Prometheus text on 127.0.0.1 (0 = any free port), or null for nowhere
     * @param evicting    the instances evict on their own, so a stored key reported missing is evicted, not lost
     */
    record Options(long durationNanos, int threads, Mix mix, int chunkSize, int keys, int rate, int batch,
                   long progressIntervalNanos, long faultSettleNanos, long seed, Integer metricsPort, boolean evicting) {}

    private final Options options;
    private final List<Target> targets;
    private final L1Arena arena;
    private final PrintWriter err;
    private final MetricRegistry metrics;
    private final long runId;
    private final RateLimiter limiter;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private volatile boolean stopping;
    private boolean stoppedEarly;
    private long startNanos;
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
        this.runId = runId;
        this.limiter = new RateLimiter(options.rate());
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

    /**
     * An external harness is about to induce a fault that must lose nothing: up to a sixteenth of
     * each instance's keys that are stored now are sealed, and the end of the soak checks them.
     * Only the first seal of an instance takes.
     */
    void seal() {
        for (Target target : targets) {
            if (target.sealed.length == 0) {
                target.sealed = target.book.seal(Math.max(1, options.keys() / 16));
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
        Operations operations = new Operations(targets, options, runId, startNanos, err);
        targets.forEach(this::pollHealth);
        SoakProgress progress = new SoakProgress(targets, err, startNanos);
        ScheduledExecutorService monitor = Executors.newScheduledThreadPool(2, daemon("kvtier-soak-monitor"));
        monitor.scheduleAtFixedRate(() -> targets.forEach(this::pollHealth), 1, 1, TimeUnit.SECONDS);
        monitor.scheduleAtFixedRate(progress::print, options.progressIntervalNanos(), options.progressIntervalNanos(),
                TimeUnit.NANOSECONDS);
        ExecutorService workers = Executors.newFixedThreadPool(options.threads(), daemon("kvtier-soak-worker"));
        List<Future<?>> running = new ArrayList<>();
        boolean workersEnded;
        try {
            for (int t = 0; t < options.threads(); t++) {
                SplittableRandom random = new SplittableRandom(options.seed() + t * 0x9e3779b97f4a7c15L);
                List<L1Slice> own = slices.get(t);
                running.add(workers.submit(() -> work(operations, random, own)));
            }
            stoppedEarly = stopRequested.await(options.durationNanos(), TimeUnit.NANOSECONDS);
            stopping = true;
            workers.shutdown();
            workersEnded = workers.awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS);
            if (!workersEnded) {
                err.println("kvtier: warning: batches still in flight " + GRACE_SECONDS
                        + " s after the soak ended; they are not counted");
            }
        } finally {
            workers.shutdownNow();
            monitor.shutdownNow();
        }
        if (workersEnded) { // else a worker may still hold the slices the check would use, and its keys
            for (Target target : targets) {
                target.afterFault.notJudged(target.book.countUnclaimed(e -> Operations.atRiskUnjudged(target, e)));
                target.sealedAtEnd = operations.readSealed(target, slices.get(0));
            }
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
        SoakReport report = new SoakReport(targets, startNanos, endNanos, stoppedEarly, options.evicting());
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

    /**
     * A window opened by an unhealthy answer starts when the answer came, not when the poll was sent:
     * a batch asked in between may have been answered before the fault began, and must judge nothing.
     */
    private void pollHealth(Target target) {
        boolean healthy = target.pollHealth();
        long now = System.nanoTime();
        if (!healthy) {
            target.faults.unhealthy(now);
        }
        target.faults.tick(now);
    }

    private void work(Operations operations, SplittableRandom random, List<L1Slice> slices) {
        try {
            operate(operations, random, slices);
        } catch (RuntimeException | Error e) {
            stop(); // a broken soak must not run on for the rest of its duration
            throw e;
        }
    }

    private void operate(Operations operations, SplittableRandom random, List<L1Slice> slices) {
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
                target.pacer.pause(FailurePacer.PAUSE_NANOS);
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                operations.run(op, target, keys, slices);
            } finally {
                target.book.release(keys);
            }
        }
    }

}
