package io.kvtier.mooncake.health;

import io.kvtier.mooncake.batch.CapacityRetry;
import io.kvtier.mooncake.config.MooncakeStoreConfig;
import java.time.Duration;

/**
 * How long an instance waits on what, in one place, each with its reason. Tests hand in shorter
 * ones instead of waiting on the wall clock. The options ({@code batch_timeout_ms},
 * {@code rpc_timeout_ms}, {@code suspect_after_ms}) live in {@link MooncakeStoreConfig}; a pause
 * that belongs to one rule stays beside it ({@link CapacityRetry#FIRST_PAUSE_MILLIS}).
 *
 * @param probeInterval     how often {@link MasterHealth} asks the master (1 s): one small RPC a second costs the
 *                          master nothing, and with probeDeadline it makes a master that stops answering an
 *                          unhealthy instance within about 2 s (docs/faults.md)
 * @param probeDeadline     how long a probe may go unanswered before the instance counts as unhealthy (2 s):
 *                          twice the interval, so that one slow answer of a busy master does not make it flap
 * @param drain             how long close() waits for running native calls before it leaves the client in place
 *                          (30 s): well past a batch's at most two master RPCs in a row, each bounded by
 *                          rpc_timeout_ms (5 s by default). A transfer to a silent node may take Mooncake's 60 s; a
 *                          call still running then leaves the client leaked rather than freed under it, which
 *                          could crash the JVM, and close() returns instead of holding its caller a minute
 * @param nodeSweep         how often {@link StorageNodes#sweep} judges the reads running (250 ms): a quarter of the
 *                          node probe's interval, so a stalled node is caught well within suspect_after_ms
 * @param nodeProbeInterval how often each suspect node is probed (1 s), as the master is
 * @param metRecently       how long no read may have met a suspect node before a probe that finds none of its
 *                          keys there clears it (3 s): far longer than a busy workload goes between reads that meet
 *                          one node's keys; a node the master dropped stays suspect that much longer, which costs
 *                          nothing, as nothing is placed there any more
 */
public record Timings(Duration probeInterval, Duration probeDeadline, Duration drain, Duration nodeSweep,
               Duration nodeProbeInterval, Duration metRecently) {
    public static final Timings DEFAULTS = new Timings(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(30),
            Duration.ofMillis(250), Duration.ofSeconds(1), Duration.ofSeconds(3));

    /**
     * How often the health scheduler judges a probe still running: a quarter of the interval, so a
     * probe stuck in an RPC is judged late within a quarter interval of probeDeadline, not when it returns.
     */
    Duration healthTick() {
        return Duration.ofMillis(Math.max(1, probeInterval.toMillis() / 4));
    }

    /**
     * How long close() waits for the master probe to return: the one RPC it may be in
     * ({@code rpcTimeout}), with probeDeadline on top for a probe that has just begun.
     */
    public Duration probeStop(Duration rpcTimeout) {
        return probeDeadline.plus(rpcTimeout);
    }

    /**
     * How long close() waits for a node probe to return: as long as a batch's caller may wait
     * ({@code batchTimeout}), since the probe is one read of the kind a batch makes.
     */
    public Duration nodeProbeStop(Duration batchTimeout) {
        return batchTimeout;
    }
}
