package io.kvtier.host.soak;

import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.ObjectKey;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test double of a Mooncake master restart: after {@code healthyKeys} keys it answers every key
 * with the mooncake_store adapter's {@code RPC_FAIL (-900)} error, and reports itself unhealthy,
 * for {@code failingKeys} keys; then it comes back empty. Emptying it at the end of the failure,
 * not the start, keeps the test deterministic: by then the soak has seen many of the errors, as it
 * would see a real master's clients fail before they reconnect to the empty one.
 */
final class RestartingAdapterDouble extends InMemoryAdapterDouble {
    private final long healthyKeys;
    private final long failingKeys;
    private final AtomicLong keys = new AtomicLong();
    final AtomicLong failed = new AtomicLong();

    RestartingAdapterDouble(long healthyKeys, long failingKeys) {
        this.healthyKeys = healthyKeys;
        this.failingKeys = failingKeys;
    }

    @Override
    protected KeyError failure(String operation, ObjectKey key) {
        long n = keys.incrementAndGet();
        if (n < healthyKeys) {
            return null;
        }
        if (n < healthyKeys + failingKeys) {
            failed.incrementAndGet();
            return KeyError.of(ErrorKind.TRANSIENT, -900, "Mooncake " + operation + " failed for key " + key + ": RPC_FAIL (-900)");
        }
        if (n == healthyKeys + failingKeys) {
            objects.clear();
        }
        return null;
    }

    /** Keys handled since it came back. */
    long keysAfterRecovery() {
        return Math.max(0, keys.get() - healthyKeys - failingKeys);
    }

    @Override
    public Map<String, Object> status() {
        long n = keys.get();
        return Map.of("is_healthy", n < healthyKeys || n >= healthyKeys + failingKeys, "type", "restarting_double");
    }
}
