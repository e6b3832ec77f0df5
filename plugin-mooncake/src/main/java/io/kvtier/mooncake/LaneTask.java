package io.kvtier.mooncake;

import io.kvtier.spi.BatchResult;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One submitted batch: the work one lane thread runs (one native batch call) and the future the
 * caller holds. When the adapter closed while the work ran, the result is replaced by the
 * "closed" error, which is delivered only after the native call returned, so a caller that frees
 * its buffers on failure never frees them under a running transfer.
 */
final class LaneTask implements Runnable {
    private final CompletableFuture<BatchResult> future = new CompletableFuture<>();
    private final Callable<BatchResult> work;
    private final Supplier<IllegalStateException> closedError;

    /** @param closedError null while the adapter is open, else the error to fail with */
    LaneTask(Callable<BatchResult> work, Supplier<IllegalStateException> closedError) {
        this.work = work;
        this.closedError = closedError;
    }

    CompletableFuture<BatchResult> future() {
        return future;
    }

    @Override
    public void run() {
        if (future.isDone()) {
            return;
        }
        try {
            BatchResult result = work.call();
            IllegalStateException closed = closedError.get();
            if (closed != null) {
                future.completeExceptionally(closed);
            } else {
                future.complete(result);
            }
        } catch (Throwable t) {
            IllegalStateException closed = closedError.get();
            future.completeExceptionally(closed != null ? closed : t);
        }
    }

    void fail(Throwable cause) {
        future.completeExceptionally(cause);
    }
}
