package io.kvtier.mooncake.deadline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ExpiryQueueTest {
    private static final Duration TIMEOUT = Duration.ofMillis(50);
    private final ExpiryQueue queue = new ExpiryQueue("test", TIMEOUT);
    private final List<Integer> ran = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        queue.close();
    }

    @Test
    void anExpiryRunsOnceItsTimeoutHasPassedNeverBefore() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        long armed = System.nanoTime();
        queue.arm(done::countDown);
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(System.nanoTime() - armed).isGreaterThanOrEqualTo(TIMEOUT.toNanos());
    }

    @Test
    void expiriesRunInTheOrderTheyWereArmedAndACancelledOneNever() throws InterruptedException {
        CountDownLatch last = new CountDownLatch(1);
        queue.arm(() -> ran.add(1));
        queue.arm(() -> ran.add(2)).cancel();
        queue.arm(() -> ran.add(3));
        queue.arm(last::countDown);
        assertThat(last.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).containsExactly(1, 3);
    }

    @Test
    void anExpiryArmedAfterTheQueueRanEmptyStillRuns() throws InterruptedException {
        CountDownLatch first = new CountDownLatch(1);
        queue.arm(first::countDown);
        assertThat(first.await(30, TimeUnit.SECONDS)).isTrue();
        CountDownLatch second = new CountDownLatch(1);
        queue.arm(second::countDown);
        assertThat(second.await(30, TimeUnit.SECONDS)).as("the thread, asleep on an empty queue, was woken").isTrue();
    }

    @Test
    void aFailingExpiryDoesNotStopTheOnesAfterIt() throws InterruptedException {
        CountDownLatch after = new CountDownLatch(1);
        queue.arm(() -> {
            throw new IllegalStateException("expected by the test");
        });
        queue.arm(after::countDown);
        assertThat(after.await(30, TimeUnit.SECONDS)).isTrue();
    }
}
