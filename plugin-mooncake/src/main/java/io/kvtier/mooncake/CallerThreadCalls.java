package io.kvtier.mooncake;

import java.util.function.Supplier;

/**
 * The native calls running on callers' threads rather than on lanes ({@code lookup_on_caller_thread}).
 * The lanes' termination cannot see them, so close() shuts this gate and waits here too before it
 * frees the native client.
 */
final class CallerThreadCalls {
    private int running;
    private boolean shut;

    /** Runs {@code task} on this thread, unless close() began: then it fails with {@code closedError}. */
    void run(LaneTask task, Supplier<IllegalStateException> closedError) {
        if (!enter()) {
            task.fail(closedError.get());
            return;
        }
        try {
            task.run();
        } finally {
            exit();
        }
    }

    /** @return false once {@link #shut()} was called: the call must not start */
    private synchronized boolean enter() {
        if (shut) {
            return false;
        }
        running++;
        return true;
    }

    private synchronized void exit() {
        if (--running == 0) {
            notifyAll();
        }
    }

    synchronized void shut() {
        shut = true;
    }

    /** Waits until no call is running, at most until {@code deadlineNanos} ({@link System#nanoTime()}); returns whether none is. */
    synchronized boolean awaitIdle(long deadlineNanos) throws InterruptedException {
        while (running > 0) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }
}
