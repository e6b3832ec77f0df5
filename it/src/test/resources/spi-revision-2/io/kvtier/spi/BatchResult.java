package io.kvtier.spi;

import java.util.Collections;
import java.util.List;

/**
 * Per-key outcome of one batch, in the order of the submitted keys.
 *
 * @param results    one entry per key
 * @param newBytes   for a store, the bytes of keys that were not stored before; otherwise 0
 * @param firstError the first per-key error message, or "" when no key failed
 */
public record BatchResult(List<KeyResult> results, long newBytes, String firstError) {
    public BatchResult {
        results = List.copyOf(results);
    }

    public static BatchResult empty() {
        return new BatchResult(List.of(), 0, "");
    }

    public static BatchResult allOk(int n, long newBytes) {
        return new BatchResult(Collections.nCopies(n, KeyResult.OK), newBytes, "");
    }

    public KeyResult get(int i) {
        return results.get(i);
    }

    public int size() {
        return results.size();
    }

    public long count(KeyResult kind) {
        return results.stream().filter(r -> r == kind).count();
    }

    public boolean allOk() {
        return count(KeyResult.OK) == results.size();
    }
}
