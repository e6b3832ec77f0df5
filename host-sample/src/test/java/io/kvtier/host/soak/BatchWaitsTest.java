package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BatchWaitsTest {
    @Test
    void aBatchInFlightShowsItsAgeUntilItCompletesThenItsWaitIsTheLongest() throws Exception {
        BatchWaits waits = new BatchWaits();
        CountDownLatch begun = new CountDownLatch(1);
        CountDownLatch complete = new CountDownLatch(1);
        long[] start = new long[1];
        Thread caller = new Thread(() -> {
            start[0] = waits.begin();
            begun.countDown();
            try {
                complete.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            waits.end(start[0]);
        });
        caller.start();
        begun.await();
        long later = start[0] + TimeUnit.SECONDS.toNanos(3);
        assertThat(waits.oldestInFlightNanos(later)).isEqualTo(TimeUnit.SECONDS.toNanos(3));
        assertThat(waits.longestNanos()).as("nothing completed yet").isZero();

        complete.countDown();
        caller.join();
        assertThat(waits.oldestInFlightNanos(System.nanoTime())).as("nothing in flight").isZero();
        long longest = waits.longestNanos();
        assertThat(longest).isPositive();
        assertThat(waits.takeIntervalLongestNanos()).isEqualTo(longest);
        assertThat(waits.takeIntervalLongestNanos()).as("the interval starts afresh").isZero();
        assertThat(waits.longestNanos()).as("the run's longest stays").isEqualTo(longest);
    }

    @Test
    void theLongestOfSeveralCallersCounts() throws Exception {
        BatchWaits waits = new BatchWaits();
        long now = System.nanoTime();
        waits.end(now - TimeUnit.MILLISECONDS.toNanos(50));
        waits.end(now - TimeUnit.MILLISECONDS.toNanos(500));
        waits.end(now - TimeUnit.MILLISECONDS.toNanos(5));
        assertThat(waits.longestNanos()).isBetween(TimeUnit.MILLISECONDS.toNanos(500), TimeUnit.MILLISECONDS.toNanos(5000));
        assertThat(waits.takeIntervalLongestNanos()).isEqualTo(waits.longestNanos());
    }
}
