package io.kvtier.host;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import java.util.concurrent.TimeUnit;

/**
 * Paces the batches a tool sends to one instance while that instance fails every key of them: an
 * instance whose master is down fails batches as fast as they come (40,000 a second in a soak),
 * which starves the machine and records nothing new. While the last batch that ended failed for
 * every key, a caller waits up to {@link #PAUSE_NANOS} before its next batch; a batch that does not
 * fail whole ends every wait at once. Paced on failed batches, not on health: a suspect storage node
 * makes an instance unhealthy while most of its batches succeed.
 */
public final class FailurePacer {
    /** The longest a caller waits before a batch while the last one failed for every key. */
    public static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private boolean failing;

    /** Whether every key of an answered batch is an error; an empty batch failed nothing. */
    public static boolean everyKeyFailed(BatchResult result) {
        return result.size() > 0 && result.count(KeyResult.ERROR) == result.size();
    }

    /** Records how a batch ended: whether every key of it failed (a batch that failed as a whole did). */
    public synchronized void batchEnded(boolean everyKeyFailed) {
        failing = everyKeyFailed;
        if (!everyKeyFailed) {
            notifyAll();
        }
    }

    /**
     * Waits while the last batch failed for every key, at most {@code nanos}; a batch that does not
     * ends the wait. An interrupt ends it too, and stays set for the caller to act on.
     */
    public synchronized void pause(long nanos) {
        long deadline = System.nanoTime() + nanos;
        try {
            for (long left = nanos; failing && left > 0; left = deadline - System.nanoTime()) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
