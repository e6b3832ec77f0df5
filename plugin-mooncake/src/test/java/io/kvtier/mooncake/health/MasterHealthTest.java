package io.kvtier.mooncake.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.mooncake.health.MasterHealth;
import io.kvtier.mooncake.health.Timings;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MasterHealthTest {
    /** A probe every 20 ms, late after 200 ms: the tests wait on the probe, not on the wall clock. */
    private static final Timings FAST = new Timings(Duration.ofMillis(20), Duration.ofMillis(200), Duration.ofSeconds(5), Timings.DEFAULTS.nodeSweep(), Timings.DEFAULTS.nodeProbeInterval(), Timings.DEFAULTS.metRecently());
    /** Health changes as the listener heard them. */
    private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    private MasterHealth health(java.util.function.Supplier<String> probe) {
        return new MasterHealth("test-health-", "127.0.0.1:50051", probe, FAST, scheduler);
    }

    private void start(MasterHealth health) {
        health.start(h -> heard.add(h.healthy() + ": " + h.reason()));
    }

    private String nextChange() throws InterruptedException {
        String change = heard.poll(10, TimeUnit.SECONDS);
        assertThat(change).as("a health change within 10 s").isNotNull();
        return change;
    }

    @Test
    void aFailingProbeMakesItUnhealthyAndTheNextAnswerHealthyAgain() throws Exception {
        AtomicReference<String> failure = new AtomicReference<>("the master does not answer: RPC_FAIL (-900)");
        MasterHealth health = health(failure::get);
        start(health);
        assertThat(nextChange()).isEqualTo("false: the master does not answer: RPC_FAIL (-900) (127.0.0.1:50051)");
        assertThat(health.healthy()).isFalse();
        assertThat(health.reason()).contains("RPC_FAIL");

        failure.set(null);
        assertThat(nextChange()).isEqualTo("true: the master answers again (127.0.0.1:50051)");
        assertThat(health.healthy()).isTrue();
        assertThat(health.reason()).isEmpty();
        assertThat(health.stop(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void whileUnhealthyItProbesMoreOftenSoThatANewLeaderIsSeenSoon() throws Exception {
        // A probe interval far longer than any pause of a loaded machine: the probes that follow a
        // failure come well within it (a fifth of it), the ones that follow an answer not before it.
        Duration interval = Duration.ofSeconds(5);
        Timings slow = new Timings(interval, Duration.ofSeconds(60), FAST.drain(), FAST.nodeSweep(),
                FAST.nodeProbeInterval(), FAST.metRecently());
        BlockingQueue<Long> probedAt = new LinkedBlockingQueue<>();
        AtomicReference<String> failure = new AtomicReference<>("the master does not answer: RPC_FAIL (-900)");
        MasterHealth health = new MasterHealth("test-health-", "redis://127.0.0.1:6379", () -> {
            probedAt.add(System.nanoTime());
            return failure.get();
        }, slow, scheduler);
        start(health);
        long first = probedAt.take();
        long second = probedAt.poll(10, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(second - first)).as("from a failed probe to the next").isLessThan(interval);
        assertThat(nextChange()).startsWith("false:");

        failure.set(null);
        assertThat(nextChange()).startsWith("true:");
        long answered = probedAt.take();
        probedAt.clear();
        Long next = probedAt.poll(interval.toMillis() - 500, TimeUnit.MILLISECONDS);
        assertThat(next).as("a probe sooner than the interval after one that answered").isNull();
        assertThat(health.stop(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void aProbeThatDoesNotReturnMakesItUnhealthyOnceItIsPastItsDeadlineBeforeItReturns() throws Exception {
        AtomicLong now = new AtomicLong();
        CountDownLatch inProbe = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        MasterHealth health = new MasterHealth("test-health-", "127.0.0.1:50051", () -> {
            inProbe.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }, FAST, scheduler, now::get);
        start(health);
        assertThat(inProbe.await(10, TimeUnit.SECONDS)).isTrue();
        now.addAndGet(FAST.probeDeadline().toNanos());
        // Not late at its deadline itself; the watch looks every 5 ms, so it has looked many times in 200 ms.
        assertThat(heard.poll(200, TimeUnit.MILLISECONDS)).as("a change at the deadline itself").isNull();
        now.incrementAndGet();
        assertThat(nextChange()).startsWith("false: the master has not answered a probe for over 200 ms");
        release.countDown();
        assertThat(nextChange()).isEqualTo("true: the master answers again (127.0.0.1:50051)");
        assertThat(health.stop(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void stopWaitsForARunningProbeAndReportsWhenItDidNotReturn() throws Exception {
        CountDownLatch inProbe = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        MasterHealth health = health(() -> {
            inProbe.countDown();
            try {
                // Like a native call: an interrupt does not end it.
                while (!release.await(1, TimeUnit.SECONDS)) {
                    Thread.onSpinWait();
                }
            } catch (InterruptedException e) {
                try {
                    release.await();
                } catch (InterruptedException again) {
                    Thread.currentThread().interrupt();
                }
            }
            return null;
        });
        start(health);
        assertThat(inProbe.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(health.stop(Duration.ofMillis(200))).as("the probe is still running").isFalse();
        release.countDown();
        assertThat(health.stop(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void aThrowingProbeCountsAsUnanswered() throws Exception {
        MasterHealth health = health(() -> {
            throw new IllegalStateException("the Mooncake client was destroyed");
        });
        start(health);
        assertThat(nextChange()).isEqualTo("false: the Mooncake client was destroyed (127.0.0.1:50051)");
        assertThat(health.stop(Duration.ofSeconds(5))).isTrue();
    }
}
