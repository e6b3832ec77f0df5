package io.kvtier.mooncake.lanes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The worker pools that make the (synchronous) native calls, as in LMCache's connector base: a
 * dedicated pool per configured lane, and a shared pool of {@code num_workers} threads for the
 * ops without one. The shared pool exists only if some op uses it. A lane of its own is what
 * keeps latency-sensitive lookups from queueing behind a flood of slow stores. Stores always run
 * on threads of their own, {@code num_workers} of them without a lane, at a lower CPU priority
 * ({@link #STORE_NICE}). One submitted task is one native batch call: Mooncake parallelises inside
 * a batch, so the thread count bounds concurrent batches, not per-key parallelism.
 */
public final class WorkerLanes {
    static final String SHARED = "shared";
    /**
     * How much higher the store threads' nice value is than the others' (10 in a process started at
     * nice 0). A store is written behind, while a lookup or a load holds up a request. With every
     * core busy (the trace replay, 2 cores, four requests in flight), store threads at the priority
     * of the others held the cores that lookups and loads were woken for: the prefix fetch p50 was
     * 4.35 ms, against 2.71 ms with stores at nice 10, whose own latency did not change (their
     * transfers run on Mooncake's threads). An idle core runs a store at once whatever its nice value.
     */
    static final int STORE_NICE = 10;
    /** Which lanes a thread belongs to, so close() can tell it is running on one of them. */
    private static final ThreadLocal<WorkerLanes> OWNER = new ThreadLocal<>();

    private final Map<Lane, WarmFirstPool> byLane = new EnumMap<>(Lane.class);
    private final Map<String, WarmFirstPool> pools = new LinkedHashMap<>();
    private final Semaphore abandonBudget;

    public WorkerLanes(String instanceName, int numWorkers, Map<Lane, Integer> perOpWorkers) {
        this(instanceName, numWorkers, perOpWorkers, 0);
    }

    /** @param maxAbandoned lane threads at most given up while their native call still runs, over all pools */
    public WorkerLanes(String instanceName, int numWorkers, Map<Lane, Integer> perOpWorkers, int maxAbandoned) {
        this.abandonBudget = new Semaphore(maxAbandoned);
        WarmFirstPool shared = null;
        for (Lane lane : Lane.values()) {
            Integer dedicated = perOpWorkers.get(lane);
            if (dedicated == null && lane == Lane.STORE) {
                dedicated = numWorkers;
            }
            WarmFirstPool pool;
            if (dedicated != null) {
                pool = newPool(instanceName, lane.operation(), dedicated, lane == Lane.STORE);
                pools.put(lane.operation(), pool);
            } else {
                if (shared == null) {
                    shared = newPool(instanceName, SHARED, numWorkers, false);
                }
                pool = shared;
            }
            byLane.put(lane, pool);
        }
        if (shared != null) {
            pools.put(SHARED, shared);
        }
    }

    private WarmFirstPool newPool(String instanceName, String poolName, int threads, boolean stores) {
        return new WarmFirstPool(threads, threadFactory("kvtier-" + instanceName + "-" + poolName + "-", stores), abandonBudget);
    }

    private ThreadFactory threadFactory(String prefix, boolean stores) {
        AtomicInteger next = new AtomicInteger(1);
        return task -> {
            Thread thread = new Thread(() -> {
                if (stores) {
                    ThreadPriority.lowerCallingThread(STORE_NICE);
                }
                OWNER.set(this);
                task.run();
            }, prefix + next.getAndIncrement());
            // Daemon: an application that forgets close() must still be able to exit.
            thread.setDaemon(true);
            return thread;
        };
    }

    /** @throws RejectedExecutionException after {@link #shutdown()} */
    public void execute(Lane lane, Runnable task) {
        byLane.get(lane).execute(task);
    }

    /**
     * Gives up {@code stuck}, a thread of {@code lane}'s pool stuck in a native call that outlived
     * its batch, so that the lane keeps serving; see {@link WarmFirstPool#abandon}.
     */
    public boolean abandon(Lane lane, Thread stuck) {
        return byLane.get(lane).abandon(stuck);
    }

    /** Native calls running on given-up threads, over all pools. */
    public int abandonedCalls() {
        int calls = 0;
        for (WarmFirstPool pool : pools.values()) {
            calls += pool.abandonedCount();
        }
        return calls;
    }

    /** Thread count per pool: the operations with a lane of their own, plus "shared" when it exists. */
    public Map<String, Integer> threadCounts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        pools.forEach((name, pool) -> counts.put(name, pool.size()));
        return Collections.unmodifiableMap(counts);
    }

    /** Pool names, for per-pool gauges. */
    public List<String> poolNames() {
        return List.copyOf(pools.keySet());
    }

    /** Tasks waiting (not yet running) in one pool. */
    public int queueDepth(String poolName) {
        WarmFirstPool pool = pools.get(poolName);
        return pool == null ? 0 : pool.queued();
    }

    /**
     * Stops accepting work and returns the tasks that never started. Running tasks are not
     * interrupted: they are inside native calls that must be allowed to return.
     */
    public List<Runnable> shutdown() {
        List<Runnable> queued = new ArrayList<>();
        for (WarmFirstPool pool : pools.values()) {
            queued.addAll(pool.shutdown());
        }
        return queued;
    }

    /** Waits until every running task has returned, at most until {@code deadlineNanos} ({@link System#nanoTime()}). */
    public boolean awaitTermination(long deadlineNanos) throws InterruptedException {
        for (WarmFirstPool pool : pools.values()) {
            if (!pool.awaitTermination(deadlineNanos)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the calling thread is one of these lanes' workers. */
    public boolean isCurrentThreadWorker() {
        return OWNER.get() == this;
    }
}
