package io.kvtier.mooncake;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How long a caller may wait on one batch, and what kvtier does about a native call or a storage
 * node that outlives it: {@code batch_timeout_ms}, {@code suspect_after_ms} and
 * {@code max_abandoned_calls} (see reference.conf).
 *
 * @param batchTimeout when every batch future completes at the latest
 * @param suspectAfter a storage node with a read running this long becomes suspect
 * @param maxAbandonedCalls native calls at most left running without a lane thread of their own
 */
record BatchBounds(Duration batchTimeout, Duration suspectAfter, int maxAbandonedCalls) {
    static final Duration MAX_MILLIS = Duration.ofMinutes(10);
    static final int MAX_ABANDONED_CALLS = 1024;
    static final BatchBounds DEFAULTS = new BatchBounds(Duration.ofSeconds(5), Duration.ofSeconds(1), 32);

    BatchBounds {
        requireMillis("batch_timeout_ms", batchTimeout);
        requireMillis("suspect_after_ms", suspectAfter);
        if (maxAbandonedCalls < 0 || maxAbandonedCalls > MAX_ABANDONED_CALLS) {
            throw new IllegalArgumentException("max_abandoned_calls must be from 0 to " + MAX_ABANDONED_CALLS
                    + ", got " + maxAbandonedCalls);
        }
    }

    private static void requireMillis(String key, Duration value) {
        if (value.toMillis() < 1 || value.compareTo(MAX_MILLIS) > 0) {
            throw new IllegalArgumentException(key + " must be from 1 to " + MAX_MILLIS.toMillis() + ", got "
                    + value.toMillis());
        }
    }

    Map<String, Object> view() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("batch_timeout_ms", batchTimeout.toMillis());
        view.put("suspect_after_ms", suspectAfter.toMillis());
        view.put("max_abandoned_calls", maxAbandonedCalls);
        return view;
    }
}
