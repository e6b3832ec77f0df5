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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * A running instance as the host calls it. Every call runs with the plugin's class loader as the
 * thread's context class loader. Every batch's future fails with a {@link BatchTimeoutException}
 * once it has been pending for longer than the bound, so that no wait on it in the host is
 * unbounded. The adapter's own futures are tracked until they complete, however long that takes,
 * so that a removal can drain them; the caller gets a future of its own, which it may cancel or
 * see time out without losing track of the batch that still runs in the adapter.
 */
final class ManagedAdapter implements L2Adapter {
    /** Fails overdue batches; one daemon thread for every instance of the process. */
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private final String instance;
    private final L2Adapter adapter;
    private final ClassLoader plugin;
    private final Duration bound;
    private final Set<CompletableFuture<BatchResult>> inFlight = ConcurrentHashMap.newKeySet();
    /** Batches are issued under the read side; a removal takes the write side, so none slips past its count. */
    private final ReadWriteLock issuing = new ReentrantReadWriteLock();
    private boolean removed;

    ManagedAdapter(String instance, L2Adapter adapter, ClassLoader plugin, Duration bound) {
        this.instance = instance;
        this.adapter = adapter;
        this.plugin = plugin;
        this.bound = bound;
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "kvtier-batch-bound");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
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
        String what = operation + " of " + keys.size() + (keys.size() == 1 ? " key" : " keys");
        CompletableFuture<BatchResult> submitted;
        issuing.readLock().lock();
        try {
            if (removed) {
                return CompletableFuture.failedFuture(new IllegalStateException("instance '" + instance
                        + "' has been removed from the running instances: its " + what + " is refused"));
            }
            try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(plugin)) {
                submitted = call.get();
            }
            inFlight.add(submitted);
        } finally {
            issuing.readLock().unlock();
        }
        CompletableFuture<BatchResult> answer = new CompletableFuture<>();
        ScheduledFuture<?> overdue = TIMER.schedule(
                () -> answer.completeExceptionally(new BatchTimeoutException(instance, what, bound)),
                bound.toNanos(), TimeUnit.NANOSECONDS);
        submitted.whenComplete((result, failure) -> {
            inFlight.remove(submitted);
            overdue.cancel(false);
            if (failure == null) {
                answer.complete(result);
            } else {
                answer.completeExceptionally(failure);
            }
        });
        return answer;
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
        List<CompletableFuture<BatchResult>> pending = List.copyOf(inFlight);
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

    /** The adapter's batches not yet completed, overdue ones included. */
    int inFlight() {
        return inFlight.size();
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
    }

    private <T> T inPlugin(Supplier<T> call) {
        try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(plugin)) {
            return call.get();
        }
    }
}
