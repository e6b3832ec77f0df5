package io.kvtier.spi;

import java.util.Objects;

/**
 * A batch that failed as a whole, with the same classification a key's error has (since SPI
 * revision 3). Adapters complete a batch's future exceptionally with it; a host reads
 * {@link #error()} instead of the message.
 */
public class BatchFailedException extends RuntimeException {
    private final KeyError error;

    public BatchFailedException(KeyError error) {
        this(error, null);
    }

    public BatchFailedException(KeyError error, Throwable cause) {
        super(Objects.requireNonNull(error, "error").message(), cause);
        this.error = error;
    }

    public KeyError error() {
        return error;
    }
}
