package io.kvtier.toolkit;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import java.util.Arrays;

/** Collects the per-key results of one batch, remembering the first error message. Not thread safe. */
public final class BatchOutcome {
    private final KeyResult[] results;
    private String firstError = "";
    private int errors;

    public BatchOutcome(int size) {
        results = new KeyResult[size];
    }

    public void ok(int i) {
        results[i] = KeyResult.OK;
    }

    public void missing(int i) {
        results[i] = KeyResult.MISSING;
    }

    public void error(int i, String message) {
        results[i] = KeyResult.ERROR;
        errors++;
        if (firstError.isEmpty()) {
            firstError = message;
        }
    }

    public int errors() {
        return errors;
    }

    /** @throws IllegalStateException when some key has no result yet */
    public BatchResult build(long newBytes) {
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                throw new IllegalStateException("key " + i + " of " + results.length + " has no result");
            }
        }
        return new BatchResult(Arrays.asList(results), newBytes, firstError);
    }
}
