package io.kvtier.mooncake;

import java.time.Duration;

/**
 * How long an instance waits on what, in one place. Bound by {@link MooncakeStoreModule}, so that
 * tests can shorten them instead of waiting on the wall clock. The options ({@code batch_timeout_ms},
 * {@code rpc_timeout_ms}, {@code suspect_after_ms}) live in {@link MooncakeStoreConfig}.
 *
 * @param probeInterval     how often {@link MasterHealth} asks the master
 * @param probeDeadline     how long a probe may take before the instance counts as unhealthy
 * @param drain             how long close() waits for running native calls before giving up on freeing the client
 * @param nodeSweep         how often {@link StorageNodes#sweep} judges the reads running: a quarter of the
 *                          node probe's interval, so a stalled node is caught well within suspect_after_ms
 * @param nodeProbeInterval how often each suspect node is probed
 * @param metRecently       how long no read may have met a suspect node before a probe that finds none of its
 *                          keys there clears it: far longer than a busy workload goes between reads that meet
 *                          one node's keys; a node the master dropped stays suspect that much longer, which costs
 *                          nothing, as nothing is placed there any more
 */
record Timings(Duration probeInterval, Duration probeDeadline, Duration drain, Duration nodeSweep,
               Duration nodeProbeInterval, Duration metRecently) {
    static final Timings DEFAULTS = new Timings(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(30),
            Duration.ofMillis(250), Duration.ofSeconds(1), Duration.ofSeconds(3));
}
