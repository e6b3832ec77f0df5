package io.kvtier.host;

import io.kvtier.spi.BatchFailedException;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyOutcome;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Groups errors by their kind and the store's code, as the adapter classified them, so that 208
 * alike errors read as one line: {@code transient -800}, {@code no_capacity -200}, {@code permanent}.
 */
public final class ErrorGroup {
    private ErrorGroup() {}

    public static String label(KeyError error) {
        String kind = error.kind().name().toLowerCase(Locale.ROOT);
        return error.code().isPresent() ? kind + " " + error.code().getAsLong() : kind;
    }

    /** The errored keys of one batch, counted by group. */
    public static Map<String, Long> count(BatchResult result) {
        Map<String, Long> groups = new TreeMap<>();
        for (KeyOutcome outcome : result.outcomes()) {
            outcome.error().ifPresent(error -> groups.merge(label(error), 1L, Long::sum));
        }
        return groups;
    }

    /**
     * A batch that failed as a whole: its {@link BatchFailedException}'s classification, or
     * {@code unclassified} when the adapter threw something else.
     */
    public static KeyError classify(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof BatchFailedException batch) {
            return batch.error();
        }
        String message = cause.getMessage();
        return KeyError.of(ErrorKind.UNCLASSIFIED, message == null || message.isBlank() ? cause.toString() : message);
    }

    /** A batch of {@code keys} keys that failed as a whole, as an error of each key, classified as {@link #classify} does. */
    public static BatchResult failedWhole(Throwable failure, int keys) {
        return new BatchResult(Collections.nCopies(keys, KeyOutcome.error(classify(failure))), 0);
    }
}
