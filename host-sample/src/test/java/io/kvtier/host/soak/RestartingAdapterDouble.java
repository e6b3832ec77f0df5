package io.kvtier.host.soak;

import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.ObjectKey;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test double of a Mooncake master restart: after {@code healthyKeys} keys it answers every key
 * with the mooncake_store adapter's {@code RPC_FAIL (-900)} error, and reports itself unhealthy;
 * then it comes back empty, once at least {@code failingKeys} keys failed and each of its
 * {@code callers} threads has started two batches since it went down.
 * <p>
 * The second condition makes what a soak judges of the restart exact, whatever the threads' timing:
 * a caller's first batch after the fall fails and opens the soak's fault window before its second
 * starts, so every batch that can see the emptied store was asked once the window was open, and
 * every object it empties was stored before.
 */
final class RestartingAdapterDouble extends InMemoryAdapterDouble {
    private final long healthyKeys;
    private final long failingKeys;
    private final int callers;
    private final Map<Thread, Integer> batchesSinceDown = new HashMap<>();
    private long keys;
    private long keysAtReturn = -1;
    final AtomicLong failed = new AtomicLong();

    RestartingAdapterDouble(long healthyKeys, long failingKeys, int callers) {
        this.healthyKeys = healthyKeys;
        this.failingKeys = failingKeys;
        this.callers = callers;
    }

    /** A master gone for good after {@code healthyKeys} keys. */
    static RestartingAdapterDouble goneAfter(long healthyKeys) {
        return new RestartingAdapterDouble(healthyKeys, Long.MAX_VALUE, 1);
    }

    private boolean down() {
        return keysAtReturn < 0 && keys >= healthyKeys;
    }

    @Override
    protected synchronized void batchStarting() {
        batchesSinceDown.merge(Thread.currentThread(), down() ? 1 : 0, Integer::sum);
        if (down() && failed.get() >= failingKeys && batchesSinceDown.size() >= callers
                && batchesSinceDown.values().stream().allMatch(batches -> batches >= 2)) {
            objects.clear();
            keysAtReturn = keys;
        }
    }

    @Override
    protected synchronized KeyError failure(String operation, ObjectKey key) {
        boolean fail = down();
        keys++;
        if (!fail) {
            return null;
        }
        failed.incrementAndGet();
        return KeyError.of(ErrorKind.TRANSIENT, -900, "Mooncake " + operation + " failed for key " + key + ": RPC_FAIL (-900)");
    }

    /** Keys handled since it came back. */
    synchronized long keysAfterRecovery() {
        return keysAtReturn < 0 ? 0 : keys - keysAtReturn;
    }

    @Override
    public synchronized Map<String, Object> status() {
        return Map.of("is_healthy", !down(), "type", "restarting_double");
    }
}
