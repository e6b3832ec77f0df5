package io.kvtier.hostlib;

import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.Health;
import io.kvtier.spi.KeyPage;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * A running instance as the host calls it. Every call runs with the plugin's class loader as the
 * thread's context class loader. Every batch's future fails with a {@link BatchTimeoutException}
 * once it has been pending for the bound (found within a tenth of the bound, at most a second,
 * after it passes), so that no wait on it in the host is unbounded. The adapter's own futures are
 * tracked until they complete, however long that takes, so that a removal can drain them; the
 * caller gets a future of its own, which it may cancel or see time out without losing track of
 * the batch that still runs in the adapter.
 */
final class ManagedAdapter implements L2Adapter {
    /** Fails overdue batches of every instance of the process, on one daemon thread. */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "kvtier-batch-bound");
        thread.setDaemon(true);
        return thread;
    });
    /** A batch fails at most this long past its bound, whatever the bound: a second is nothing beside minutes. */
    private static final long MAX_SWEEP_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** A batch in the adapter, and the future its caller has. */
    private record Pending(CompletableFuture<BatchResult> answer, long issuedNanos, String operation, int keys) {
        String describe() {
            return operation + " of " + keys + (keys == 1 ? " key" : " keys");
        }
    }

    private final String instance;
    private final L2Adapter adapter;
    private final ClassLoader plugin;
    private final Duration bound;
    /** The adapter's own futures not yet completed, overdue ones included. */
    private final Map<CompletableFuture<BatchResult>, Pending> inFlight = new ConcurrentHashMap<>();
    /** Batches are issued under the read side; a removal takes the write side, so none slips past its count. */
    private final ReadWriteLock issuing = new ReentrantReadWriteLock();
    private boolean removed;
    private volatile boolean closed;
    /**
     * Sweeps for overdue batches every tenth of the bound (at most every second) rather than
     * timing each batch, which would cost a timer queue insertion and removal on every batch.
     */
    private final ScheduledFuture<?> sweeper;

    ManagedAdapter(String instance, L2Adapter adapter, ClassLoader plugin, Duration bound) {
        this.instance = instance;
        this.adapter = adapter;
        this.plugin = plugin;
        this.bound = bound;
        long period = Math.max(1, Math.min(bound.toNanos() / 10, MAX_SWEEP_NANOS));
        this.sweeper = TIMER.scheduleWithFixedDelay(this::failOverdue, period, period, TimeUnit.NANOSECONDS);
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) {
        return batch("store", keys, () -> adapter.store(keys, objects));
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        return batch("lookup", keys, () -> adapter.lookupAndLock(keys));
    }

    @Override
    public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) {
        return batch("load", keys, () -> adapter.load(keys, objects));
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        return batch("delete", keys, () -> adapter.delete(keys));
    }

    private CompletableFuture<BatchResult> batch(String operation, List<ObjectKey> keys,
                                                 Supplier<CompletableFuture<BatchResult>> call) {
        CompletableFuture<BatchResult> answer = new CompletableFuture<>();
        CompletableFuture<BatchResult> submitted;
        issuing.readLock().lock();
        try {
            if (removed) {
                return CompletableFuture.failedFuture(new IllegalStateException("instance '" + instance
                        + "' has been removed from the running instances: its "
                        + new Pending(answer, 0, operation, keys.size()).describe() + " is refused"));
            }
            try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(plugin)) {
                submitted = call.get();
            }
            inFlight.put(submitted, new Pending(answer, System.nanoTime(), operation, keys.size()));
        } finally {
            issuing.readLock().unlock();
        }
        submitted.whenComplete((result, failure) -> {
            inFlight.remove(submitted);
            if (failure == null) {
                answer.complete(result);
            } else {
                answer.completeExceptionally(failure);
            }
        });
        return answer;
    }

    /** Fails every caller's future whose batch has been pending for the bound; stops once closed and none waits. */
    private void failOverdue() {
        long now = System.nanoTime();
        boolean waiting = false;
        for (Pending pending : inFlight.values()) {
            if (pending.answer().isDone()) {
                continue;
            }
            if (now - pending.issuedNanos() >= bound.toNanos()) {
                pending.answer().completeExceptionally(new BatchTimeoutException(instance, pending.describe(), bound));
            } else {
                waiting = true;
            }
        }
        if (closed && !waiting) {
            sweeper.cancel(false);
        }
    }

    /**
     * Refuses new batches from now on, and waits up to {@code drainBound} for those in flight.
     *
     * @return how many were still in flight when the wait ended
     */
    int drain(Duration drainBound) {
        issuing.writeLock().lock();
        try {
            removed = true;
        } finally {
            issuing.writeLock().unlock();
        }
        List<CompletableFuture<BatchResult>> pending = List.copyOf(inFlight.keySet());
        try {
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                    .get(drainBound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // A failed batch has drained as well; an overdue one is counted below.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return (int) pending.stream().filter(f -> !f.isDone()).count();
    }

    @Override
    public void unlock(List<ObjectKey> keys) {
        inPlugin(() -> {
            adapter.unlock(keys);
            return null;
        });
    }

    @Override
    public AdapterUsage usage() {
        return inPlugin(adapter::usage);
    }

    @Override
    public Map<String, Object> status() {
        return inPlugin(adapter::status);
    }

    @Override
    public Health health() {
        return inPlugin(adapter::health);
    }

    @Override
    public void addListener(L2AdapterListener listener) {
        inPlugin(() -> {
            adapter.addListener(listener);
            return null;
        });
    }

    @Override
    public long l1BlockSize() {
        return inPlugin(adapter::l1BlockSize);
    }

    @Override
    public boolean supportsKeyListing() {
        return inPlugin(adapter::supportsKeyListing);
    }

    @Override
    public KeyPage listKeys(String model, int pageSize, String cursor) {
        return inPlugin(() -> adapter.listKeys(model, pageSize, cursor));
    }

    @Override
    public boolean supportsGlobalEviction() {
        return inPlugin(adapter::supportsGlobalEviction);
    }

    @Override
    public void close() {
        inPlugin(() -> {
            adapter.close();
            return null;
        });
        closed = true;
    }

    private <T> T inPlugin(Supplier<T> call) {
        try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(plugin)) {
            return call.get();
        }
    }
}
