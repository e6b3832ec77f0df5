package io.kvtier.mooncake.lanes;

import io.kvtier.mooncake.deadline.GuardWord;
import io.kvtier.mooncake.deadline.SliceGuard;
import io.kvtier.spi.BatchResult;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import jnr.ffi.Pointer;

/**
 * One submitted batch: the work one lane thread runs (one native batch call) and the future the
 * caller holds. The future completes once, by whichever comes first: the work, its deadline
 * ({@link #expire}) or close() ({@link #fail}). The work touches the caller's slices only through
 * this task's {@link SliceGuard}, so none is touched after the future completed. When the adapter
 * closed while the work ran, the result is replaced by the "closed" error.
 */
public final class LaneTask implements Runnable, SliceGuard {
    private final CompletableFuture<BatchResult> future = new CompletableFuture<>();
    /** Reached from the lane thread's stack while the work runs, so valid for the native call. */
    private final GuardWord state = new GuardWord();
    private final Function<SliceGuard, BatchResult> work;
    private final Supplier<IllegalStateException> closedError;
    private volatile Thread runner;
    /** Whether the work runs now; guarded by this. */
    private boolean working;
    /** What to run when work that outlived the batch returns; guarded by this. */
    private Runnable afterLateWork;

    /**
     * @param work the batch; returns null when it found the batch already complete
     * @param closedError null while the adapter is open, else the error to fail with
     */
    public LaneTask(Function<SliceGuard, BatchResult> work, Supplier<IllegalStateException> closedError) {
        this.work = work;
        this.closedError = closedError;
    }

    public CompletableFuture<BatchResult> future() {
        return future;
    }

    /** The thread running the work right now, or null. */
    public Thread runner() {
        return runner;
    }

    @Override
    public void run() {
        run(() -> {});
    }

    /**
     * Runs the work; {@code workDone} runs once it returned or threw, before the caller can see
     * the outcome, so that a pool counts this thread free before the caller's next batch arrives.
     */
    void run(Runnable workDone) {
        synchronized (this) {
            // Not future.isDone(): an early completion marks the state before it completes the future.
            if (state.get() == GuardWord.COMPLETE) {
                return;
            }
            working = true;
        }
        runner = Thread.currentThread();
        try {
            BatchResult result;
            try {
                result = work.apply(this);
            } finally {
                workDone.run();
            }
            IllegalStateException closed = closedError.get();
            if (closed != null) {
                fail(closed);
            } else if (result != null) {
                complete(() -> future.complete(result));
            }
        } catch (Throwable t) {
            IllegalStateException closed = closedError.get();
            fail(closed != null ? closed : t);
        } finally {
            runner = null;
            Runnable late;
            synchronized (this) {
                working = false;
                late = afterLateWork;
                afterLateWork = null;
            }
            if (late != null) {
                late.run();
            }
        }
    }

    /**
     * For a completion before the work returned (in {@link #expire}'s supplier): when the work is
     * running, runs {@code begin} now and {@code end} once the work has returned; else neither,
     * and the work will not run.
     */
    public void whileWorkOutlivesTheBatch(Runnable begin, Runnable end) {
        synchronized (this) {
            if (working) {
                begin.run();
                afterLateWork = end;
            }
        }
    }

    @Override
    public boolean enter() {
        return state.compareAndSet(GuardWord.OPEN, GuardWord.USING_SLICES);
    }

    @Override
    public void exit() {
        state.set(GuardWord.OPEN);
    }

    @Override
    public boolean completed() {
        return state.get() == GuardWord.COMPLETE;
    }

    @Override
    public Pointer word() {
        return state.pointer();
    }

    /**
     * Completes the batch with {@code timedOut} unless it is complete already; {@code timedOut}
     * runs only then, before the caller sees the result.
     */
    public void expire(Supplier<BatchResult> timedOut) {
        complete(() -> future.complete(timedOut.get()));
    }

    public void fail(Throwable cause) {
        complete(() -> future.completeExceptionally(cause));
    }

    /** Runs {@code completion} if the batch is not complete yet, after any copy in progress has ended. */
    private boolean complete(Runnable completion) {
        while (true) {
            if (state.compareAndSet(GuardWord.OPEN, GuardWord.COMPLETE)) {
                completion.run();
                return true;
            }
            if (state.get() == GuardWord.COMPLETE) {
                return false;
            }
            // A copy of at most one batch's bytes is in progress, or the connector's read of a
            // replica in this process's own segment: a memcpy, which no network fault stalls.
            Thread.onSpinWait();
        }
    }
}
