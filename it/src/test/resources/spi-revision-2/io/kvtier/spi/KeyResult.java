package io.kvtier.spi;

/** What happened to one key of a batch. */
public enum KeyResult {
    /** Stored, found, loaded or deleted. */
    OK,
    /** The key is not in the store. */
    MISSING,
    /** The operation failed for this key; the batch's {@code firstError} says why. */
    ERROR
}
