package io.kvtier.hostlib;

import java.time.Duration;

/** A batch that an adapter did not complete within the host's bound: the adapter may be hung. */
public final class BatchTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String instance;
    private final String operation;
    private final Duration bound;

    /** @param operation what the batch was, e.g. {@code store of 16 keys} */
    public BatchTimeoutException(String instance, String operation, Duration bound) {
        super("instance '" + instance + "': " + operation + " did not complete within " + seconds(bound)
                + " (the host's bound on a batch); the adapter may be hung");
        this.instance = instance;
        this.operation = operation;
        this.bound = bound;
    }

    private static String seconds(Duration bound) {
        return bound.toMillis() % 1000 == 0 ? bound.toSeconds() + " s" : bound.toMillis() / 1000.0 + " s";
    }

    public String instance() {
        return instance;
    }

    public String operation() {
        return operation;
    }

    public Duration bound() {
        return bound;
    }
}
