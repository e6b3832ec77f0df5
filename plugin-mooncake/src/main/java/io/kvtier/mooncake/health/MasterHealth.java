package io.kvtier.mooncake.health;

import io.kvtier.spi.Health;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Whether an instance's master answers, kept current by a probe (a one-key lookup) that runs
 * every {@link Timings#probeInterval} (more often while unhealthy) on a thread of its own, judged on ticks of the instance's
 * health scheduler (shared with {@link NodeWatch}). A probe that fails, or that has not
 * returned within {@link Timings#probeDeadline}, makes the instance unhealthy; the next probe that
 * succeeds makes it healthy again. Mooncake's own health_check cannot serve: a client without a
 * segment sends no heartbeat, so it says healthy while its master is gone.
 */
public final class MasterHealth {
    private static final long NOT_PROBING = Long.MIN_VALUE;
    /**
     * While unhealthy, probes come this many times as often: batches are refused until a probe
     * answers, and a new HA leader is found by Mooncake's client within 200 ms of serving (its view
     * poll). At the 1 s interval kvtier resumed about 1 s after Mooncake's own client; a master
     * that is away costs one refused connect, or one probe thread waiting, per probe.
     */
    private static final int FASTER_WHILE_UNHEALTHY = 5;

    /** Hears every change, on the health threads. */
    public interface Listener {
        void changed(Health health);
    }

    /** The master_server_addr probed, named in every reason: with HA masters, which backend's leader. */
    private final String master;
    private final Supplier<String> probe;
    private final Duration interval;
    private final Duration deadline;
    private final Duration tick;
    /** {@link System#nanoTime} but in tests, which judge a late probe on a clock of their own. */
    private final LongSupplier nanoTime;
    /** Set by {@link #start}, before the health threads exist. */
    private Listener listener;
    private final Thread prober;
    private final ScheduledExecutorService scheduler;
    private volatile ScheduledFuture<?> evaluating;
    private volatile long probeStartedNanos = NOT_PROBING;
    private volatile String lastFailure;
    private volatile boolean stopped;
    /** Read on every batch, so without a lock; replaced whole, so its parts always agree. */
    private volatile Health state = Health.healthy(Instant.now());

    /** The one thread that judges an instance's health: the master's probe and the storage nodes' reads. */
    public static ScheduledExecutorService scheduler(String instanceName) {
        return Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "kvtier-" + instanceName + "-health-watch");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** @param probe returns null when the master answered, else why it did not */
    public MasterHealth(String threadPrefix, String master, Supplier<String> probe, Timings timings,
                 ScheduledExecutorService scheduler) {
        this(threadPrefix, master, probe, timings, scheduler, System::nanoTime);
    }

    public MasterHealth(String threadPrefix, String master, Supplier<String> probe, Timings timings,
                 ScheduledExecutorService scheduler, LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.master = master;
        this.probe = probe;
        this.interval = timings.probeInterval();
        this.deadline = timings.probeDeadline();
        this.tick = timings.healthTick();
        this.prober = new Thread(this::probeLoop, threadPrefix + "probe");
        prober.setDaemon(true);
        this.scheduler = scheduler;
    }

    /** @param listener hears every change from now on */
    public void start(Listener listener) {
        this.listener = listener;
        prober.start();
        evaluating = scheduler.scheduleWithFixedDelay(this::evaluate, tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean healthy() {
        return state.healthy();
    }

    /** Why the instance is unhealthy; "" while healthy. */
    public String reason() {
        return state.healthy() ? "" : state.reason();
    }

    public Health health() {
        return state;
    }

    private void probeLoop() {
        while (!stopped) {
            probeStartedNanos = nanoTime.getAsLong();
            String failure;
            try {
                failure = probe.get();
            } catch (RuntimeException e) {
                // A failure without a message must not read as an answer.
                failure = e.getMessage() == null || e.getMessage().isEmpty() ? e.toString() : e.getMessage();
            }
            probeStartedNanos = NOT_PROBING;
            lastFailure = failure;
            evaluate();
            try {
                Thread.sleep(healthy() ? interval.toMillis() : Math.max(1, interval.toMillis() / FASTER_WHILE_UNHEALTHY));
            } catch (InterruptedException e) {
                return; // stop() wakes us
            }
        }
    }

    private void evaluate() {
        Health changed;
        // The two health threads both evaluate, and one of them reports a change. Both read the
        // probe's outcome under the lock: read before it, an outcome the other thread has just
        // replaced undid that thread's change (healthy again at once, with the master still away).
        synchronized (this) {
            String failure = lastFailure;
            long started = probeStartedNanos;
            if (failure == null && started != NOT_PROBING && nanoTime.getAsLong() - started > deadline.toNanos()) {
                failure = "the master has not answered a probe for over " + inWords(deadline);
            }
            boolean now = failure == null;
            if (now == healthy() || stopped) {
                return;
            }
            String reason = now ? "the master answers again (" + master + ")" : failure + " (" + master + ")";
            changed = new Health(now, reason, Optional.of(Instant.now()), now ? Map.of() : Map.of("master", reason));
            state = changed;
        }
        listener.changed(changed);
    }

    /** Whole seconds as seconds (the default, 2 s), anything shorter (in tests) in milliseconds. */
    private static String inWords(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    /**
     * Stops probing and waits, at most {@code timeout}, for a running probe to return.
     *
     * @return whether the probe thread ended, so that the native client may be freed
     */
    public boolean stop(Duration timeout) throws InterruptedException {
        stopped = true;
        if (evaluating != null) {
            evaluating.cancel(false);
        }
        prober.interrupt();
        if (prober.isAlive()) {
            prober.join(Math.max(1, timeout.toMillis()));
        }
        return !prober.isAlive();
    }
}
