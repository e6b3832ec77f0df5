package io.kvtier.mooncake.deadline;

import io.kvtier.mooncake.AdapterMetrics;
import io.kvtier.mooncake.batch.CheckedBuffers;
import io.kvtier.mooncake.lanes.Lane;
import io.kvtier.mooncake.lanes.LaneTask;
import io.kvtier.mooncake.lanes.WorkerLanes;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.BatchOutcome;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The {@code batch_timeout_ms} of one instance: its {@link ExpiryQueue} completes a batch at its deadline,
 * unless it completed before, with a transient error for each key, and gives up the lane thread
 * stuck in its native call. A store or delete that outlives its batch leaves its keys in doubt
 * ({@link KeysInDoubt}) until the native call returns; a store or delete of such a key is refused.
 */
public final class BatchDeadline {
    private final String instanceName;
    private final WorkerLanes lanes;
    private final AdapterMetrics metrics;
    private final KeysInDoubt keysInDoubt = new KeysInDoubt();
    private final ExpiryQueue expiries;

    /** @param expiries the batches' timeout and their expiries; its owner closes it once no batch is in flight */
    public BatchDeadline(String instanceName, WorkerLanes lanes, AdapterMetrics metrics, ExpiryQueue expiries) {
        this.instanceName = instanceName;
        this.lanes = lanes;
        this.metrics = metrics;
        this.expiries = expiries;
    }

    public Duration timeout() {
        return expiries.timeout();
    }

    public int keysInDoubt() {
        return keysInDoubt.size();
    }

    /**
     * The answer to a store or delete that holds a key in doubt (every key a transient error), or
     * null when it may go ahead.
     *
     * @param batch the checked buffers of a store, else null
     */
    public BatchResult refusal(Lane lane, List<ObjectKey> keys, CheckedBuffers batch) {
        ObjectKey inDoubt = lane == Lane.STORE || lane == Lane.DELETE ? keysInDoubt.firstOf(keys) : null;
        if (inDoubt == null) {
            return null;
        }
        metrics.errors.inc(keys.size());
        return everyKeyTransient(keys, batch, key -> "the " + lane.operation() + " of key " + key
                + " is refused: an earlier store or delete of key " + inDoubt + " outlived batch_timeout_ms and still runs in Mooncake");
    }

    /** Completes {@code task}, which starts now, at its deadline, unless it completed before. */
    public void arm(Lane lane, LaneTask task, List<ObjectKey> keys, CheckedBuffers batch) {
        ExpiryQueue.Expiry pending = expiries.arm(() -> expire(lane, task, keys, batch));
        task.future().whenComplete((result, error) -> pending.cancel());
    }

    private void expire(Lane lane, LaneTask task, List<ObjectKey> keys, CheckedBuffers batch) {
        // Before the caller sees the result: its next batch must find the lane serving again.
        task.expire(() -> {
            Thread stuck = task.runner();
            if (stuck != null) {
                lanes.abandon(lane, stuck);
            }
            if (lane == Lane.STORE || lane == Lane.DELETE) {
                task.whileWorkOutlivesTheBatch(() -> keysInDoubt.add(keys), () -> keysInDoubt.remove(keys));
            }
            metrics.timeouts.inc();
            metrics.errors.inc(keys.size());
            return everyKeyTransient(keys, batch, key -> "the " + lane.operation() + " of key " + key
                    + " did not complete within batch_timeout_ms = " + timeout().toMillis()
                    + " (a storage node or the master may not answer)");
        });
    }

    private BatchResult everyKeyTransient(List<ObjectKey> keys, CheckedBuffers batch, Function<ObjectKey, String> why) {
        BatchOutcome outcome = new BatchOutcome(keys.size());
        if (batch != null) {
            batch.reportRejections(outcome);
        }
        for (int i = 0; i < keys.size(); i++) {
            if (batch == null || !batch.rejected(i)) {
                outcome.error(i, KeyError.of(ErrorKind.TRANSIENT, "mooncake_store adapter '" + instanceName + "': "
                        + why.apply(keys.get(i))));
            }
        }
        return outcome.build(0);
    }
}
