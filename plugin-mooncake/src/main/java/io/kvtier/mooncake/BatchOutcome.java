package io.kvtier.mooncake;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import java.util.Arrays;

/** Collects per-key results of one batch, remembering the first error message. */
final class BatchOutcome {
    private final KeyResult[] results;
    private String firstError = "";
    private int errors;

    BatchOutcome(int size) {
        results = new KeyResult[size];
    }

    void ok(int i) {
        results[i] = KeyResult.OK;
    }

    void missing(int i) {
        results[i] = KeyResult.MISSING;
    }

    void error(int i, String message) {
        results[i] = KeyResult.ERROR;
        errors++;
        if (firstError.isEmpty()) {
            firstError = message;
        }
    }

    int errors() {
        return errors;
    }

    BatchResult build(long newBytes) {
        return new BatchResult(Arrays.asList(results), newBytes, firstError);
    }
}
