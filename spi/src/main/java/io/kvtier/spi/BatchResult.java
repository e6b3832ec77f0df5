package io.kvtier.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Per-key outcome of one batch, in the order of the submitted keys.
 *
 * @param outcomes one entry per key (since SPI revision 3; a revision-2 adapter's results are
 *                 converted, its errors {@link ErrorKind#UNCLASSIFIED} with the batch's first message)
 * @param newBytes for a store, the bytes of keys that were not stored before; otherwise 0
 */
public record BatchResult(List<KeyOutcome> outcomes, long newBytes) {
    public BatchResult {
        outcomes = List.copyOf(outcomes);
    }

    /**
     * The revision-2 form: results without per-key errors.
     *
     * @param firstError the first per-key error message, or "" when no key failed
     * @deprecated since SPI revision 3: build {@link KeyOutcome}s, whose errors say their kind
     */
    @Deprecated(since = "3")
    public BatchResult(List<KeyResult> results, long newBytes, String firstError) {
        this(unclassified(results, firstError), newBytes);
    }

    private static List<KeyOutcome> unclassified(List<KeyResult> results, String firstError) {
        KeyError error = KeyError.of(ErrorKind.UNCLASSIFIED,
                firstError == null || firstError.isEmpty() ? "error without a message" : firstError);
        List<KeyOutcome> outcomes = new ArrayList<>(results.size());
        for (KeyResult result : results) {
            outcomes.add(switch (result) {
                case OK -> KeyOutcome.ok();
                case MISSING -> KeyOutcome.missing();
                case ERROR -> KeyOutcome.error(error);
            });
        }
        return outcomes;
    }

    public static BatchResult empty() {
        return new BatchResult(List.of(), 0);
    }

    public static BatchResult allOk(int n, long newBytes) {
        return new BatchResult(Collections.nCopies(n, KeyOutcome.ok()), newBytes);
    }

    /** What happened to each key, without the errors. */
    public List<KeyResult> results() {
        return outcomes.stream().map(KeyOutcome::result).toList();
    }

    public KeyResult get(int i) {
        return outcomes.get(i).result();
    }

    /** Why key {@code i} failed, or empty when it did not. */
    public Optional<KeyError> error(int i) {
        return outcomes.get(i).error();
    }

    public int size() {
        return outcomes.size();
    }

    public long count(KeyResult kind) {
        return outcomes.stream().filter(o -> o.result() == kind).count();
    }

    public boolean allOk() {
        return count(KeyResult.OK) == outcomes.size();
    }

    /** The first per-key error message, or "" when no key failed. */
    public String firstError() {
        for (KeyOutcome outcome : outcomes) {
            if (outcome.error().isPresent()) {
                return outcome.error().get().message();
            }
        }
        return "";
    }

    /** Counts of the batch's outcomes, so that a host need not walk every key. */
    public Summary summary() {
        int ok = 0;
        int missing = 0;
        Map<ErrorKind, Integer> errorsByKind = new EnumMap<>(ErrorKind.class);
        KeyError first = null;
        for (KeyOutcome outcome : outcomes) {
            switch (outcome.result()) {
                case OK -> ok++;
                case MISSING -> missing++;
                case ERROR -> {
                    KeyError error = outcome.error().orElseThrow();
                    errorsByKind.merge(error.kind(), 1, Integer::sum);
                    if (first == null) {
                        first = error;
                    }
                }
            }
        }
        return new Summary(ok, missing, outcomes.size() - ok - missing, errorsByKind, Optional.ofNullable(first));
    }

    /**
     * @param errorsByKind only kinds that occurred
     * @param firstError   the error of the first key that failed
     */
    public record Summary(int ok, int missing, int errors, Map<ErrorKind, Integer> errorsByKind,
                          Optional<KeyError> firstError) {
        public Summary {
            errorsByKind = Map.copyOf(errorsByKind);
        }
    }
}
