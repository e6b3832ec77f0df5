package io.kvtier.mooncake.deadline;

import java.time.Duration;

/**
 * How long a caller may wait on one batch, and what kvtier does about a native call or a storage
 * node that outlives it: {@code batch_timeout_ms}, {@code suspect_after_ms} and
 * {@code max_abandoned_calls} (see reference.conf), as the parser checked them.
 *
 * @param batchTimeout when every batch future completes at the latest
 * @param suspectAfter a storage node with a read running this long, unheard from for as long, becomes suspect
 * @param maxAbandonedCalls native calls at most left running without a lane thread of their own
 */
public record BatchBounds(Duration batchTimeout, Duration suspectAfter, int maxAbandonedCalls) {
    /**
     * The longest any millisecond option may be (rpc_timeout_ms too): 10 minutes is past any wait a
     * caller of a cache tier means, so a larger value is a unit slip (seconds written as ms, times 1000).
     */
    public static final Duration MAX_MILLIS = Duration.ofMinutes(10);
    public static final int MAX_ABANDONED_CALLS = 1024;
}
