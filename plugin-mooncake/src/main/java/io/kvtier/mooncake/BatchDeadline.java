package io.kvtier.mooncake;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The {@code batch_timeout_ms} of one instance: one timer thread that runs a batch's expiry at its
 * deadline, unless the batch completed before.
 */
final class BatchDeadline implements AutoCloseable {
    private final Duration timeout;
    private final ScheduledThreadPoolExecutor timer;

    BatchDeadline(String instanceName, Duration timeout) {
        this.timeout = timeout;
        this.timer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "kvtier-" + instanceName + "-deadline");
            thread.setDaemon(true);
            return thread;
        });
        // A batch that completes in time cancels its expiry; it must not stay queued for the whole timeout.
        timer.setRemoveOnCancelPolicy(true);
    }

    Duration timeout() {
        return timeout;
    }

    /** Runs {@code expiry} at the deadline of {@code task}, which starts now, unless the task completed before. */
    void arm(LaneTask task, Runnable expiry) {
        ScheduledFuture<?> pending = timer.schedule(expiry, timeout.toNanos(), TimeUnit.NANOSECONDS);
        task.future().whenComplete((result, error) -> pending.cancel(false));
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
