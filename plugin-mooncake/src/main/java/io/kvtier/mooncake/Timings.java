package io.kvtier.mooncake;

import java.time.Duration;

/**
 * How long an instance waits on what. Bound by {@link MooncakeStoreModule}, so that tests can
 * shorten them instead of waiting on the wall clock.
 *
 * @param probeInterval how often {@link MasterHealth} asks the master
 * @param probeDeadline how long a probe may take before the instance counts as unhealthy
 * @param drain         how long close() waits for running native calls before giving up on freeing the client
 */
record Timings(Duration probeInterval, Duration probeDeadline, Duration drain) {
    static final Timings DEFAULTS = new Timings(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(30));
}
