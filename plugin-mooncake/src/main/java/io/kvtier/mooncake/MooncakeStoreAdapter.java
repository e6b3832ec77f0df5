package io.kvtier.mooncake;

import com.codahale.metrics.Timer;
import io.kvtier.mooncake.batch.BufferCheck;
import io.kvtier.mooncake.batch.CheckedBuffers;
import io.kvtier.mooncake.batch.MooncakeBatchException;
import io.kvtier.mooncake.batch.NativeBatches;
import io.kvtier.mooncake.config.MooncakeStoreConfig;
import io.kvtier.mooncake.deadline.BatchDeadline;
import io.kvtier.mooncake.deadline.SliceGuard;
import io.kvtier.mooncake.health.MasterHealth;
import io.kvtier.mooncake.health.MasterUnreachableException;
import io.kvtier.mooncake.health.StorageNodes;
import io.kvtier.mooncake.l1.L1Registration;
import io.kvtier.mooncake.lanes.Lane;
import io.kvtier.mooncake.lanes.LaneTask;
import io.kvtier.mooncake.lanes.WorkerLanes;
import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.Health;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.Batches;
import io.kvtier.toolkit.KeyLocks;
import io.kvtier.toolkit.UsageTracker;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The {@code mooncake_store} adapter and its dispatch ({@link MooncakeStoreModule} makes its
 * parts, {@link Lifecycle} releases them): each batch is checked on the caller's thread and handed
 * to its lane as one native batch call, which {@link NativeBatches} makes and turns into per-key
 * outcomes. Unlike LMCache's
 * adapter, a lookup error is an error and not a miss, a short read is not a hit, stores report per
 * key, and close() fails what is in flight instead of leaving it pending forever.
 */
public final class MooncakeStoreAdapter implements L2Adapter {
    static final String TYPE = "mooncake_store";
    private static final Logger LOG = Logger.getLogger(MooncakeStoreAdapter.class.getName());

    private final String name;
    private final MooncakeStoreConfig config;
    private final L1Registration registration;
    private final BufferCheck bufferCheck;
    private final WorkerLanes lanes;
    private final MasterHealth health;
    private final StorageNodes storageNodes;
    private final AdapterMetrics metrics;
    private final UsageTracker usage;
    private final KeyLocks locks;
    private final NativeBatches batches;
    private final BatchDeadline deadline;
    private final InFlight inFlight;
    private final Lifecycle lifecycle;
    private volatile boolean closed;
    /** Set before {@link #closed}, so that a reader who sees {@code closed} sees it. */
    private volatile Health closedHealth;

    /** Acquires nothing: the module made the parts, and {@code lifecycle} releases them when this closes. */
    MooncakeStoreAdapter(String name, MooncakeStoreConfig config, L1Registration registration, WorkerLanes lanes,
                         MasterHealth health, StorageNodes storageNodes, AdapterMetrics metrics, UsageTracker usage,
                         KeyLocks locks, NativeBatches batches, BatchDeadline deadline, InFlight inFlight,
                         Lifecycle lifecycle) {
        this.name = name;
        this.config = config;
        this.registration = registration;
        this.bufferCheck = registration.enabled() ? registration : BufferCheck.NON_EMPTY;
        this.lanes = lanes;
        this.health = health;
        this.storageNodes = storageNodes;
        this.metrics = metrics;
        this.usage = usage;
        this.locks = locks;
        this.batches = batches;
        this.deadline = deadline;
        this.inFlight = inFlight;
        this.lifecycle = lifecycle;
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) {
        Batches.requireSameSize(keys, objects);
        CheckedBuffers batch = CheckedBuffers.of(objects, bufferCheck);
        return submit(Lane.STORE, metrics.store, keys, batch, guard -> batches.store(keys, batch, guard));
    }

    /** On RDMA, the host must keep every object inside one registered block. */
    @Override
    public long l1BlockSize() {
        return registration.enabled() ? registration.blockSize() : 0;
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        return submit(Lane.LOOKUP, metrics.lookup, keys, null, guard -> batches.lookup(keys));
    }

    @Override
    public void unlock(List<ObjectKey> keys) {
        locks.unlock(keys);
    }

    @Override
    public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) {
        Batches.requireSameSize(keys, objects);
        CheckedBuffers batch = CheckedBuffers.of(objects, bufferCheck);
        return submit(Lane.LOAD, metrics.load, keys, batch, guard -> batches.load(keys, batch, guard));
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        return submit(Lane.DELETE, metrics.delete, keys, null, guard -> batches.delete(keys));
    }

    /**
     * A closed adapter fails at once and an empty batch completes at once; anything else goes to
     * its lane. A batch gets its deadline, unless it is a load or store on RDMA, whose slices
     * Mooncake uses until the native call returns.
     *
     * @param batch the checked buffers of a load or store, else null
     */
    private CompletableFuture<BatchResult> submit(Lane lane, Timer timer, List<ObjectKey> keys, CheckedBuffers batch,
                                                  Function<SliceGuard, BatchResult> work) {
        if (closed) {
            return CompletableFuture.failedFuture(closedError());
        }
        if (keys.isEmpty()) {
            return CompletableFuture.completedFuture(BatchResult.empty());
        }
        if (!health.healthy()) {
            // Each key would only wait out an RPC timeout; the probe notices the master's return.
            metrics.errors.inc(keys.size());
            return CompletableFuture.failedFuture(new MasterUnreachableException(name, health.reason()));
        }
        BatchResult refused = deadline.refusal(lane, keys, batch);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        Timer laneWait = metrics.laneWait(lane);
        long queued = System.nanoTime();
        LaneTask task = new LaneTask(guard -> {
            laneWait.update(System.nanoTime() - queued, TimeUnit.NANOSECONDS);
            return work.apply(guard);
        }, () -> closed ? closedError() : null);
        Timer.Context timing = timer.time();
        inFlight.add(task);
        // The caller gets the stage after the bookkeeping, so that what it sees on completion
        // (metrics, in-flight count) already includes this batch.
        CompletableFuture<BatchResult> future = task.future().whenComplete((result, error) -> {
            timing.stop();
            inFlight.remove(task);
            if (error instanceof MooncakeBatchException) {
                metrics.errors.inc(keys.size());
            }
        });
        if (batch == null || batches.guarded()) {
            deadline.arm(lane, task, keys, batch);
        }
        try {
            lanes.execute(lane, task);
        } catch (RejectedExecutionException e) {
            // close() shut the lanes down between our check and this submission.
            task.fail(closedError());
        }
        return future;
    }

    @Override
    public AdapterUsage usage() {
        return usage.usage();
    }

    @Override
    public Health health() {
        if (closed) {
            return closedHealth;
        }
        Health master = health.health();
        List<String> suspects = storageNodes.suspects();
        if (suspects.isEmpty()) {
            return master;
        }
        // Still healthy when the master answers: reads go around a suspect node.
        Map<String, String> parts = new LinkedHashMap<>(master.unhealthyParts());
        suspects.forEach(node -> parts.put("node " + node, "suspect: reads skip it until a probe read from it succeeds"));
        return master.withUnhealthyParts(parts);
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        Health now = health();
        status.put("is_healthy", now.healthy());
        if (!now.healthy()) {
            status.put("unhealthy_reason", now.reason());
        }
        status.put("type", TYPE);
        status.put("instance", name);
        status.put("closed", closed);
        status.put("protocol", config.protocol().orElse("tcp"));
        status.put("lanes", lanes.threadCounts());
        status.put("in_flight", inFlight.size());
        status.put("batch_timeout_ms", deadline.timeout().toMillis());
        status.put("abandoned_calls", lanes.abandonedCalls());
        status.put("keys_in_doubt", deadline.keysInDoubt());
        status.put("suspect_nodes", closed ? List.of() : storageNodes.suspects());
        status.put("preregister_l1_memory", registration.enabled());
        status.put("registered_bytes", registration.registeredBytes());
        status.put("registration_blocks", registration.blockCount());
        if (registration.enabled()) {
            status.put("registration_block_size", registration.blockSize());
        }
        return status;
    }

    @Override
    public void addListener(L2AdapterListener listener) {
        usage.addListener(listener);
    }

    /**
     * Fails queued batches at once, then has the {@link Lifecycle} wait (bounded) for running native
     * calls to return, fail what is still in flight, and release the rest, the native client and
     * the L1 registration exactly once. If a native call does not return in time the client is
     * deliberately leaked: freeing it under a running call could crash the JVM. Called on one of
     * the lanes, which cannot wait for itself, it releases on a thread of its own.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closedHealth = Health.unhealthy("closed", Instant.now());
            closed = true;
        }
        IllegalStateException error = closedError(name);
        for (Runnable queued : lanes.shutdown()) {
            ((LaneTask) queued).fail(error);
        }
        if (lanes.isCurrentThreadWorker()) {
            Thread finisher = new Thread(this::release, "kvtier-" + name + "-close");
            finisher.setDaemon(true);
            finisher.start();
        } else {
            release();
        }
    }

    private void release() {
        lifecycle.close(e -> LOG.log(Level.WARNING, "mooncake_store adapter '" + name + "': releasing it failed", e));
    }

    private IllegalStateException closedError() {
        return closedError(name);
    }

    static IllegalStateException closedError(String name) {
        return new IllegalStateException("mooncake_store adapter '" + name + "' is closed");
    }
}
