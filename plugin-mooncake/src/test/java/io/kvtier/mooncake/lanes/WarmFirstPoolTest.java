package io.kvtier.mooncake.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.spi.BatchResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WarmFirstPoolTest {
    private final AtomicInteger created = new AtomicInteger();
    private final WarmFirstPool pool = new WarmFirstPool(3, task -> {
        Thread thread = new Thread(task, "warm-" + created.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    @AfterEach
    void shutdown() {
        pool.shutdown();
    }

    private CompletableFuture<String> submit(CountDownLatch release) {
        CompletableFuture<String> ran = new CompletableFuture<>();
        pool.execute(() -> {
            try {
                release.await(30, TimeUnit.SECONDS);
                ran.complete(Thread.currentThread().getName());
            } catch (InterruptedException e) {
                ran.completeExceptionally(e);
            }
        });
        return ran;
    }

    /** One task per thread, each held until {@code hold} opens. */
    private List<CompletableFuture<String>> occupyEveryThread(CountDownLatch hold) {
        List<CompletableFuture<String>> held = new ArrayList<>();
        for (int i = 0; i < pool.size(); i++) {
            held.add(submit(hold));
        }
        return held;
    }

    private void awaitIdle() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!pool.idle()) {
            assertThat(System.nanoTime()).as("pool idle within 30 s").isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    @Test
    void oneTaskAtATimeAlwaysRunsOnTheFirstThread() throws Exception {
        CountDownLatch open = new CountDownLatch(0);
        List<String> ranOn = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ranOn.add(submit(open).get(30, TimeUnit.SECONDS));
            awaitIdle();
        }
        assertThat(ranOn).containsOnly("warm-1");
    }

    @Test
    void aBusyThreadIsPassedOverForAnIdleOneAndExtraTasksWaitForTheLeastBusy() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        List<CompletableFuture<String>> held = occupyEveryThread(hold);
        CompletableFuture<String> extra = submit(new CountDownLatch(0));
        assertThat(pool.queued()).isEqualTo(1);
        assertThat(extra).isNotDone();

        hold.countDown();
        assertThat(held.stream().map(CompletableFuture::join)).containsExactlyInAnyOrder("warm-1", "warm-2", "warm-3");
        assertThat(extra.get(30, TimeUnit.SECONDS)).isEqualTo("warm-1");
        awaitIdle();
        assertThat(pool.queued()).isZero();
    }

    @Test
    void shutdownReturnsTheTasksThatNeverStartedAndRefusesNewOnes() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        List<CompletableFuture<String>> running = occupyEveryThread(hold);
        Runnable neverStarted = () -> { };
        pool.execute(neverStarted);

        assertThat(pool.shutdown()).containsExactly(neverStarted);
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        hold.countDown();
        assertThat(pool.awaitTermination(System.nanoTime() + TimeUnit.SECONDS.toNanos(30))).isTrue();
        running.forEach(future -> assertThat(future).isCompleted());
    }

    @Test
    void aBatchSubmittedAsTheLastOneCompletesTakesItsThreadNotAQueueBehindABusyOne() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        List<CompletableFuture<String>> busy = List.of(submit(hold), submit(hold)); // threads 1 and 2
        CompletableFuture<String> next = new CompletableFuture<>();
        LaneTask first = new LaneTask(guard -> BatchResult.empty(), () -> null);
        // As a caller woken by the completion does, before the first batch's thread is back in its loop.
        first.future().whenComplete((result, error) -> pool.execute(new LaneTask(guard -> {
            next.complete(Thread.currentThread().getName());
            return BatchResult.empty();
        }, () -> null)));
        pool.execute(first);
        assertThat(next.get(30, TimeUnit.SECONDS)).as("ran while the other two threads are still held").isEqualTo("warm-3");
        hold.countDown();
        CompletableFuture.allOf(busy.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }
}
