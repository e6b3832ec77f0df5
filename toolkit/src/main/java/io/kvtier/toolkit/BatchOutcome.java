package io.kvtier.toolkit;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyOutcome;
import java.util.Arrays;

/** Collects the per-key outcomes of one batch. Not thread safe. */
public final class BatchOutcome {
    private final KeyOutcome[] outcomes;
    private int errors;

    public BatchOutcome(int size) {
        outcomes = new KeyOutcome[size];
    }

    public void ok(int i) {
        outcomes[i] = KeyOutcome.ok();
    }

    /** @param bytes the bytes moved for this key (see {@link KeyOutcome#bytes()}) */
    public void ok(int i, long bytes) {
        outcomes[i] = KeyOutcome.ok(bytes);
    }

    public void missing(int i) {
        outcomes[i] = KeyOutcome.missing();
    }

    public void error(int i, KeyError error) {
        outcomes[i] = KeyOutcome.error(error);
        errors++;
    }

    /** @deprecated an error without a kind: use {@link #error(int, KeyError)} */
    @Deprecated
    public void error(int i, String message) {
        error(i, KeyError.of(ErrorKind.UNCLASSIFIED, message));
    }

    public int errors() {
        return errors;
    }

    /** @throws IllegalStateException when some key has no result yet */
    public BatchResult build(long newBytes) {
        for (int i = 0; i < outcomes.length; i++) {
            if (outcomes[i] == null) {
                throw new IllegalStateException("key " + i + " of " + outcomes.length + " has no result");
            }
        }
        return new BatchResult(Arrays.asList(outcomes), newBytes);
    }
}
