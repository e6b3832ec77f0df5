package io.kvtier.mooncake;

import com.codahale.metrics.Timer;
import io.kvtier.mooncake.NativeAbi.MooncakeNative;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.Health;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.BatchOutcome;
import io.kvtier.toolkit.Batches;
import io.kvtier.toolkit.KeyLocks;
import io.kvtier.toolkit.UsageTracker;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import io.kvtier.mooncake.MooncakeCodes.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The {@code mooncake_store} adapter: each batch is checked on the caller's thread, handed to
 * its lane as one native batch call (a lookup runs on the caller's thread instead when
 * {@code lookup_on_caller_thread} is set), and its per-key native results are turned into per-key
 * outcomes. Unlike LMCache's adapter, a lookup error is an error and not a miss, a short read
 * is not a hit, stores report per key, and close() fails what is in flight instead of leaving it
 * pending forever.
 */
public final class MooncakeStoreAdapter implements L2Adapter {
    static final String TYPE = "mooncake_store";
    private static final Logger LOG = Logger.getLogger(MooncakeStoreAdapter.class.getName());
    /** How long close() waits for running native calls before giving up on freeing the client. */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

    private final String name;
    private final MooncakeStoreConfig config;
    private final MooncakeClient client;
    private final L1Registration registration;
    private final BufferCheck bufferCheck;
    private final WorkerLanes lanes;
    private final AdapterMetrics metrics;
    private final UsageTracker usage = new UsageTracker(0);
    private final KeyLocks locks = new KeyLocks();
    private final Set<LaneTask> inFlight = ConcurrentHashMap.newKeySet();
    private final CallerThreadCalls callerThreadCalls = new CallerThreadCalls();
    private final MasterHealth health;
    private final BatchDeadline deadline;
    private final SuspectNodes suspectNodes;
    /** Whether loads and stores go through staging memory, so that their deadline may complete them early. */
    private final boolean staged;
    private volatile boolean closed;
    /** Set before {@link #closed}, so that a reader who sees {@code closed} sees it. */
    private volatile Health closedHealth;

    /**
     * Acquires what this adapter owns, in order: the native client, the L1 registration (when
     * {@code registrationRegion} is present), the lanes and the metrics. If one step fails, what
     * was acquired before it is released, newest first, so a failed creation leaks nothing.
     *
     * @param registrationRegion the L1 region to register, as decided by {@link RdmaL1Rule}
     */
    @Inject
    MooncakeStoreAdapter(AdapterContext context, MooncakeStoreConfig config, MooncakeNative lib,
                         Optional<L1MemoryDesc> registrationRegion) {
        this.name = context.instanceName();
        this.config = config;
        Deque<AutoCloseable> acquired = new ArrayDeque<>();
        try {
            this.client = MooncakeClient.open(lib, config.setupConfig(), config.rpcTimeout(),
                    config.bounds().suspectAfter());
            acquired.push(client);
            this.registration = registrationRegion
                    .map(region -> L1Registration.register(client, region.address(), region.size()))
                    .orElse(L1Registration.DISABLED);
            acquired.push(registration);
            this.lanes = new WorkerLanes(name, config.numWorkers(), config.perOpWorkers(),
                    config.bounds().maxAbandonedCalls());
            acquired.push(lanes::shutdown);
            this.deadline = new BatchDeadline(name, config.bounds().batchTimeout());
            acquired.push(deadline);
            this.health = new MasterHealth("kvtier-" + name + "-health-", client::askMaster, this::healthChanged);
            this.metrics = new AdapterMetrics(context, lanes, registration, health::healthy);
            this.suspectNodes = new SuspectNodes(context, client::nodes, client::probeNode);
        } catch (RuntimeException | Error e) {
            releaseAll(acquired, e);
            throw e;
        }
        health.start();
        suspectNodes.start();
        // RDMA reads and writes the registered L1 itself: staging memory would have to be registered too.
        this.staged = !registration.enabled();
        this.bufferCheck = registration.enabled() ? registration : BufferCheck.NON_EMPTY;
    }

    private static void releaseAll(Deque<AutoCloseable> acquired, Throwable failure) {
        while (!acquired.isEmpty()) {
            try {
                acquired.pop().close();
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }

    private void healthChanged(Health health) {
        LOG.log(health.healthy() ? Level.INFO : Level.WARNING, "mooncake_store adapter ''{0}'' is {1}: {2}",
                new Object[] {name, health.healthy() ? "healthy again" : "unhealthy, failing batches fast", health.reason()});
        usage.reportHealth(health);
    }

    @Override
    public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) {
        Batches.requireSameSize(keys, objects);
        CheckedBuffers batch = CheckedBuffers.of(objects, bufferCheck);
        return submit(Lane.STORE, metrics.store, keys, batch, guard -> doStore(keys, batch, guard));
    }

    /** @return null when the batch completed (its deadline) before its slices were copied */
    private BatchResult doStore(List<ObjectKey> keys, CheckedBuffers batch, SliceGuard guard) {
        BatchOutcome outcome = new BatchOutcome(keys.size());
        batch.reportRejections(outcome);
        List<ObjectKey> stored = new ArrayList<>(batch.nativeCount());
        List<Long> storedSizes = new ArrayList<>(batch.nativeCount());
        List<Integer> storedAt = new ArrayList<>(batch.nativeCount());
        long bytes = 0;
        if (batch.nativeCount() > 0) {
            long[] rc;
            try {
                long[] sources = batch.addresses();
                if (staged) {
                    sources = StagingBuffer.forCurrentThread().layout(batch.sizes());
                    if (!copyBetween(guard, batch.addresses(), sources, batch.sizes(), null)) {
                        return null; // the deadline came first: the slices are no longer this batch's
                    }
                }
                rc = client.store(keys, batch.nativeIndices(), sources, batch.sizes(), config.replicateConfig());
            } finally {
                batch.releaseSlices();
            }
            for (int j = 0; j < rc.length; j++) {
                int i = batch.nativeIndices()[j];
                if (rc[j] == 0) {
                    storedAt.add(i);
                    stored.add(keys.get(i));
                    storedSizes.add(batch.sizes()[j]);
                    bytes += batch.sizes()[j];
                } else {
                    outcome.error(i, MooncakeCodes.keyError(rc[j], "Mooncake batch_put_from failed for key " + keys.get(i)));
                }
            }
        }
        // A re-stored key is reported to listeners with size 0 and adds no bytes, as in LMCache.
        long[] newBytesPerKey = usage.recordStoredPerKey(stored, storedSizes);
        long newBytes = 0;
        for (int k = 0; k < newBytesPerKey.length; k++) {
            outcome.ok(storedAt.get(k), newBytesPerKey[k]);
            newBytes += newBytesPerKey[k];
        }
        metrics.bytesStored.mark(bytes);
        metrics.errors.inc(outcome.errors());
        return outcome.build(newBytes);
    }

    /** On RDMA, the host must keep every object inside one registered block. */
    @Override
    public long l1BlockSize() {
        return registration.enabled() ? registration.blockSize() : 0;
    }

    @Override
    public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
        return submit(Lane.LOOKUP, metrics.lookup, keys, null, guard -> doLookup(keys));
    }

    private BatchResult doLookup(List<ObjectKey> keys) {
        long[] rc = retryTransient(client.lookup(keys), again -> client.lookup(pick(keys, again)));
        BatchOutcome outcome = new BatchOutcome(keys.size());
        int hits = 0;
        int misses = 0;
        for (int i = 0; i < rc.length; i++) {
            if (rc[i] == 1) {
                outcome.ok(i);
                locks.lock(keys.get(i));
                hits++;
            } else if (rc[i] == 0) {
                outcome.missing(i);
                misses++;
            } else {
                outcome.error(i, MooncakeCodes.keyError(rc[i], "Mooncake batchIsExist failed for key " + keys.get(i)));
            }
        }
        metrics.hits.inc(hits);
        metrics.misses.inc(misses);
        metrics.errors.inc(outcome.errors());
        return outcome.build(0);
    }

    @Override
    public void unlock(List<ObjectKey> keys) {
        locks.unlock(keys);
    }

    @Override
    public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) {
        Batches.requireSameSize(keys, objects);
        CheckedBuffers batch = CheckedBuffers.of(objects, bufferCheck);
        return submit(Lane.LOAD, metrics.load, keys, batch, guard -> doLoad(keys, batch, guard));
    }

    /** @return null when the batch completed (its deadline) before its bytes were copied into L1 */
    private BatchResult doLoad(List<ObjectKey> keys, CheckedBuffers batch, SliceGuard guard) {
        BatchOutcome outcome = new BatchOutcome(keys.size());
        batch.reportRejections(outcome);
        List<ObjectKey> loaded = new ArrayList<>(batch.nativeCount());
        long bytes = 0;
        if (batch.nativeCount() > 0) {
            long[] rc;
            try {
                int[] indices = batch.nativeIndices();
                long[] targets = staged ? StagingBuffer.forCurrentThread().layout(batch.sizes()) : batch.addresses();
                rc = retryTransient(client.load(keys, indices, targets, batch.sizes()),
                        again -> client.load(keys, pick(indices, again), pick(targets, again),
                                pick(batch.sizes(), again)));
                if (staged && !copyBetween(guard, targets, batch.addresses(), batch.sizes(), rc)) {
                    return null; // the bytes stay in staging memory: the slices are no longer this batch's
                }
            } finally {
                batch.releaseSlices();
            }
            for (int j = 0; j < rc.length; j++) {
                int i = batch.nativeIndices()[j];
                long expected = batch.sizes()[j];
                if (rc[j] == expected) {
                    outcome.ok(i, expected);
                    loaded.add(keys.get(i));
                    bytes += expected;
                } else if (rc[j] == MooncakeCodes.OBJECT_NOT_FOUND) {
                    outcome.missing(i);
                } else if (rc[j] >= 0) {
                    // Mooncake accepts a buffer larger than the object; the tail would be stale.
                    outcome.error(i, KeyError.of(ErrorKind.PERMANENT, (rc[j] < expected ? "short read" : "oversized read")
                            + " for key " + keys.get(i) + ": Mooncake returned " + rc[j] + " bytes, expected " + expected));
                } else {
                    outcome.error(i, MooncakeCodes.keyError(rc[j], "Mooncake batch_get_into failed for key " + keys.get(i)));
                }
            }
        }
        usage.recordAccessed(loaded);
        metrics.bytesLoaded.mark(bytes);
        metrics.errors.inc(outcome.errors());
        return outcome.build(0);
    }

    /**
     * Copies {@code sizes[j]} bytes from {@code from[j]} to {@code to[j]} for every j (every j whose
     * load read the whole object, when {@code loaded} is given), while the batch's slices are still
     * its own.
     *
     * @return false, copying nothing, when the batch had completed already
     */
    private static boolean copyBetween(SliceGuard guard, long[] from, long[] to, long[] sizes, long[] loaded) {
        if (!guard.enter()) {
            return false;
        }
        try {
            for (int j = 0; j < sizes.length; j++) {
                if (loaded == null || loaded[j] == sizes[j]) {
                    StagingBuffer.copy(from[j], to[j], sizes[j]);
                }
            }
            return true;
        } finally {
            guard.exit();
        }
    }

    /**
     * Asks once more for the keys whose answer was a transient code (a master restart, a remount,
     * a lost node), unless the master is known to be unreachable. Only lookups and loads are asked
     * again: both read, and a second answer is as good as a first. A store or delete is reported
     * as it failed, for the host to decide.
     *
     * @param askAgain given positions in {@code rc}, returns the new answers for them
     */
    private long[] retryTransient(long[] rc, Function<int[], long[]> askAgain) {
        int[] positions = new int[rc.length];
        int transients = 0;
        for (int j = 0; j < rc.length; j++) {
            // A key on suspect nodes only would fail just as fast again.
            if (MooncakeCodes.kind(rc[j]) == Kind.TRANSIENT && rc[j] != MooncakeCodes.ON_SUSPECT_NODES) {
                positions[transients++] = j;
            }
        }
        if (transients == 0 || !health.healthy()) {
            return rc;
        }
        int[] again = Arrays.copyOf(positions, transients);
        metrics.retries.inc(transients);
        long[] second;
        try {
            second = askAgain.apply(again);
        } catch (MooncakeBatchException e) {
            return rc; // the first answers stand
        }
        for (int k = 0; k < again.length; k++) {
            rc[again[k]] = second[k];
        }
        return rc;
    }

    private static List<ObjectKey> pick(List<ObjectKey> keys, int[] positions) {
        return Arrays.stream(positions).mapToObj(keys::get).toList();
    }

    private static int[] pick(int[] values, int[] positions) {
        return Arrays.stream(positions).map(j -> values[j]).toArray();
    }

    private static long[] pick(long[] values, int[] positions) {
        return Arrays.stream(positions).mapToLong(j -> values[j]).toArray();
    }

    @Override
    public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
        return submit(Lane.DELETE, metrics.delete, keys, null, guard -> doDelete(keys));
    }

    private BatchResult doDelete(List<ObjectKey> keys) {
        long[] rc = client.delete(keys);
        BatchOutcome outcome = new BatchOutcome(keys.size());
        List<ObjectKey> gone = new ArrayList<>(keys.size());
        for (int i = 0; i < rc.length; i++) {
            if (rc[i] == 0) {
                outcome.ok(i);
                gone.add(keys.get(i));
            } else if (rc[i] == MooncakeCodes.OBJECT_NOT_FOUND) {
                outcome.missing(i);
                // Mooncake may have evicted it on its own: stop counting its bytes too.
                gone.add(keys.get(i));
            } else {
                outcome.error(i, MooncakeCodes.keyError(rc[i], "Mooncake batchRemove failed for key " + keys.get(i)));
            }
        }
        usage.recordDeleted(gone);
        metrics.errors.inc(outcome.errors());
        return outcome.build(0);
    }

    /**
     * A closed adapter fails at once and an empty batch completes at once; anything else goes to
     * its lane, or runs right here when lookups run on the caller's thread. A batch on a lane gets
     * its deadline, unless it is an unstaged load or store (RDMA), whose slices Mooncake uses until
     * the native call returns.
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
        LaneTask task = new LaneTask(work, () -> closed ? closedError() : null);
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
        if (lane == Lane.LOOKUP && config.lookupOnCallerThread()) {
            runOnCallerThread(task);
            return future;
        }
        if (batch == null || staged) {
            deadline.arm(task, () -> expire(lane, task, keys, batch));
        }
        try {
            lanes.execute(lane, task);
        } catch (RejectedExecutionException e) {
            // close() shut the lanes down between our check and this submission.
            task.fail(closedError());
        }
        return future;
    }

    /**
     * At the deadline: completes the batch with a transient error for each key still open, and
     * gives up the lane thread if it is stuck in the native call, so that the lane keeps serving.
     */
    private void expire(Lane lane, LaneTask task, List<ObjectKey> keys, CheckedBuffers batch) {
        // Before the caller sees the result: its next batch must find the lane serving again.
        task.expire(() -> {
            Thread stuck = task.runner();
            if (stuck != null) {
                lanes.abandon(lane, stuck);
            }
            metrics.timeouts.inc();
            metrics.errors.inc(keys.size());
            return timedOut(lane, keys, batch);
        });
    }

    private BatchResult timedOut(Lane lane, List<ObjectKey> keys, CheckedBuffers batch) {
        BatchOutcome outcome = new BatchOutcome(keys.size());
        if (batch != null) {
            batch.reportRejections(outcome);
        }
        for (int i = 0; i < keys.size(); i++) {
            if (batch == null || !batch.rejected(i)) {
                outcome.error(i, KeyError.of(ErrorKind.TRANSIENT, "mooncake_store adapter '" + name + "': the "
                        + lane.operation() + " of key " + keys.get(i) + " did not complete within batch_timeout_ms = "
                        + deadline.timeout().toMillis() + " (a storage node or the master may not answer)"));
            }
        }
        return outcome.build(0);
    }

    private void runOnCallerThread(LaneTask task) {
        if (!callerThreadCalls.enter()) {
            // close() began between our check and this call.
            task.fail(closedError());
            return;
        }
        try {
            task.run();
        } finally {
            callerThreadCalls.exit();
        }
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
        List<String> suspects = suspectNodes.suspects();
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
        status.put("lookup_on_caller_thread", config.lookupOnCallerThread());
        status.put("in_flight", inFlight.size());
        status.put("batch_timeout_ms", deadline.timeout().toMillis());
        status.put("abandoned_calls", lanes.abandonedCalls());
        status.put("suspect_nodes", closed ? List.of() : suspectNodes.suspects());
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
     * Fails queued batches at once, waits (bounded) for running native calls to return, fails
     * them too, then unregisters L1 and destroys the native client exactly once. If a native call
     * does not return in time the client is deliberately leaked: freeing it under a running call
     * could crash the JVM.
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
        callerThreadCalls.shut();
        IllegalStateException error = closedError();
        for (Runnable queued : lanes.shutdown()) {
            ((LaneTask) queued).fail(error);
        }
        if (lanes.isCurrentThreadWorker()) {
            // Called from a callback on one of our own lanes: it cannot wait for itself.
            Thread finisher = new Thread(this::finishClose, "kvtier-" + name + "-close");
            finisher.setDaemon(true);
            finisher.start();
        } else {
            finishClose();
        }
    }

    private void finishClose() {
        // All three always run: a probe that kept going after close() would call listeners on a leaked client.
        boolean callsReturned = awaitNativeCalls();
        boolean probeReturned = stopHealth();
        boolean nodeProbeReturned = stopSuspectNodes();
        boolean drained = callsReturned && probeReturned && nodeProbeReturned;
        inFlight.forEach(task -> task.fail(closedError()));
        if (drained) {
            registration.close();
            client.close();
        } else {
            LOG.log(Level.WARNING, "mooncake_store adapter ''{0}'': native calls still running after {1}; "
                    + "leaving the Mooncake client and its L1 registration in place", new Object[] {name, DRAIN_TIMEOUT});
        }
        deadline.close();
        metrics.close();
    }

    /** Whether the node probe has returned from the native client, so that it may be freed. */
    private boolean stopSuspectNodes() {
        try {
            return suspectNodes.stop(config.bounds().batchTimeout());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether the health probe has returned from the native client, so that it may be freed. */
    private boolean stopHealth() {
        try {
            return health.stop(MasterHealth.PROBE_DEADLINE.plus(config.rpcTimeout()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits for the lanes and for the calls on callers' threads, through interrupts: giving up early
     * would leak the native client for nothing.
     */
    private boolean awaitNativeCalls() {
        long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return lanes.awaitTermination(deadline) && callerThreadCalls.awaitIdle(deadline);
                } catch (InterruptedException e) {
                    interrupted = true;
                    if (System.nanoTime() - deadline >= 0) {
                        return false;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private IllegalStateException closedError() {
        return new IllegalStateException("mooncake_store adapter '" + name + "' is closed");
    }
}
