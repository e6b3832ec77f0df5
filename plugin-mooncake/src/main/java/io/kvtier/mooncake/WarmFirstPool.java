package io.kvtier.mooncake;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A fixed set of threads that gives each task to the first idle thread in a fixed order, or, when
 * none is idle, to the one with the least work. With fewer batches in flight than threads, the
 * same few threads run every batch and stay warm. A thread pool over one shared queue wakes the
 * thread idle the longest instead, so with one batch in flight each native call ran on the
 * coldest of four threads, and lookups were measured 25-45% slower than with a single thread.
 */
final class WarmFirstPool {
    private final ThreadPoolExecutor[] threads;
    /** Per thread: tasks given to it and not yet finished. */
    private final AtomicIntegerArray outstanding;

    WarmFirstPool(int size, ThreadFactory factory) {
        threads = new ThreadPoolExecutor[size];
        outstanding = new AtomicIntegerArray(size);
        for (int i = 0; i < size; i++) {
            threads[i] = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), factory);
        }
    }

    int size() {
        return threads.length;
    }

    /** @throws RejectedExecutionException after {@link #shutdown()} */
    void execute(Runnable task) {
        int i = pick();
        try {
            threads[i].execute(new Given(i, task));
        } catch (RejectedExecutionException e) {
            outstanding.decrementAndGet(i);
            throw e;
        }
    }

    private int pick() {
        for (int i = 0; i < threads.length; i++) {
            if (outstanding.compareAndSet(i, 0, 1)) {
                return i;
            }
        }
        int least = 0;
        for (int i = 1; i < threads.length; i++) {
            if (outstanding.get(i) < outstanding.get(least)) {
                least = i;
            }
        }
        outstanding.incrementAndGet(least);
        return least;
    }

    /** Whether no task is waiting or running. */
    boolean idle() {
        for (int i = 0; i < threads.length; i++) {
            if (outstanding.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Tasks waiting, not yet running. */
    int queued() {
        int queued = 0;
        for (ThreadPoolExecutor thread : threads) {
            queued += thread.getQueue().size();
        }
        return queued;
    }

    /** Stops accepting tasks and returns those that never started, as they were given. */
    List<Runnable> shutdown() {
        List<Runnable> never = new ArrayList<>();
        for (ThreadPoolExecutor thread : threads) {
            thread.shutdown();
            List<Runnable> drained = new ArrayList<>();
            thread.getQueue().drainTo(drained);
            drained.forEach(given -> never.add(((Given) given).task));
        }
        return never;
    }

    /** Waits until every running task has returned, at most until {@code deadlineNanos} ({@link System#nanoTime()}). */
    boolean awaitTermination(long deadlineNanos) throws InterruptedException {
        for (ThreadPoolExecutor thread : threads) {
            if (!thread.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    private final class Given implements Runnable {
        final int thread;
        final Runnable task;

        Given(int thread, Runnable task) {
            this.thread = thread;
            this.task = task;
        }

        @Override
        public void run() {
            try {
                task.run();
            } finally {
                outstanding.decrementAndGet(thread);
            }
        }
    }
}
