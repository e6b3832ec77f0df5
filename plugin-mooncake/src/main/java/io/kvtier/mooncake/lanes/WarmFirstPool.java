package io.kvtier.mooncake.lanes;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
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
 *
 * <p>A thread stuck in a native call that outlived its batch can be given up ({@link #abandon}): a
 * new thread takes its place and its queue, and the old one ends when its call returns. Every
 * abandoned thread holds one permit of a budget shared by the instance's pools until then.
 */
final class WarmFirstPool {
    private final ThreadFactory factory;
    private final Semaphore abandonBudget;
    private final ThreadPoolExecutor[] threads;
    /** Per thread: tasks given to it and not yet finished. */
    private final AtomicIntegerArray outstanding;
    /** Per slot: the thread running a task there right now, or null. */
    private final Thread[] running;
    /** Given-up threads whose call has not returned yet. */
    private final List<ThreadPoolExecutor> abandoned = new CopyOnWriteArrayList<>();

    WarmFirstPool(int size, ThreadFactory factory) {
        this(size, factory, new Semaphore(0));
    }

    /** @param abandonBudget permits for threads given up and still running, shared by an instance's pools */
    WarmFirstPool(int size, ThreadFactory factory, Semaphore abandonBudget) {
        this.factory = factory;
        this.abandonBudget = abandonBudget;
        threads = new ThreadPoolExecutor[size];
        outstanding = new AtomicIntegerArray(size);
        running = new Thread[size];
        for (int i = 0; i < size; i++) {
            threads[i] = newThread();
        }
    }

    private ThreadPoolExecutor newThread() {
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), factory) {
            @Override
            protected void terminated() {
                if (abandoned.remove(this)) {
                    abandonBudget.release();
                }
            }
        };
    }

    int size() {
        return threads.length;
    }

    /** @throws RejectedExecutionException after {@link #shutdown()} */
    synchronized void execute(Runnable task) {
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

    /**
     * Gives up {@code stuck}, one of this pool's threads, whose native call outlived its batch:
     * a new thread takes over its slot and the tasks queued there, and {@code stuck} ends once its
     * call returns. Nothing happens when the budget is spent, after {@link #shutdown()}, or when
     * {@code stuck} no longer runs a task here.
     *
     * @return whether the thread was given up
     */
    synchronized boolean abandon(Thread stuck) {
        for (int i = 0; i < threads.length; i++) {
            if (running[i] != stuck || threads[i].isShutdown()) {
                continue;
            }
            if (!abandonBudget.tryAcquire()) {
                return false;
            }
            ThreadPoolExecutor old = threads[i];
            abandoned.add(old); // before shutdown(): its terminated() gives the permit back
            old.shutdown();
            List<Runnable> queued = new ArrayList<>();
            old.getQueue().drainTo(queued);
            threads[i] = newThread();
            running[i] = null;
            queued.forEach(threads[i]::execute);
            return true;
        }
        return false;
    }

    /** Threads given up whose call has not returned yet. */
    int abandonedCount() {
        return abandoned.size();
    }

    /** Stops accepting tasks and returns those that never started, as they were given. */
    synchronized List<Runnable> shutdown() {
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
        List<ThreadPoolExecutor> all = new ArrayList<>(abandoned);
        synchronized (this) {
            all.addAll(List.of(threads));
        }
        for (ThreadPoolExecutor thread : all) {
            if (!thread.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    private final class Given implements Runnable {
        final int thread;
        final Runnable task;
        /** Whether the thread counts free again; read and written on the task's thread only. */
        private boolean released;

        Given(int thread, Runnable task) {
            this.thread = thread;
            this.task = task;
        }

        @Override
        public void run() {
            synchronized (WarmFirstPool.this) {
                running[thread] = Thread.currentThread();
            }
            try {
                if (task instanceof LaneTask batch) {
                    // Free once the native call returned: its caller, woken by the completion, may
                    // submit its next batch before this thread gets back here, which must not queue
                    // behind a busy thread while this one is about to idle.
                    batch.run(this::release);
                } else {
                    task.run();
                }
            } finally {
                release();
            }
        }

        /** Once, on this task's thread. */
        private void release() {
            if (released) {
                return;
            }
            released = true;
            synchronized (WarmFirstPool.this) {
                if (running[thread] == Thread.currentThread()) {
                    running[thread] = null;
                }
            }
            outstanding.decrementAndGet(thread);
        }
    }
}
