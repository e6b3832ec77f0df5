package io.kvtier.host.soak;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outcomes of one operation on one instance. Key counts: ok, missing and errors add up to the
 * keys asked; lost, evicted, missing-after-fault and phantom classify some of them against the soak's
 * expectation; verified, stale and foreign classify the loads that came back OK.
 */
final class OpStats {
    static final long BUCKET_NANOS = 5_000_000_000L;

    /** A consistent copy, for reports and progress lines. */
    record Snapshot(long batches, long ok, long missing, long errors, Map<String, Long> errorsByKind, long verified,
                    long stale, long foreign, long lost, long evicted, long missingAfterFault, long phantom, long bytes,
                    Map<Integer, long[]> buckets) {
        long corrupted() {
            return stale + foreign;
        }
    }

    private long batches;
    private long ok;
    private long missing;
    private long errors;
    private final Map<String, Long> errorsByKind = new TreeMap<>();
    private long verified;
    private long stale;
    private long foreign;
    private long lost;
    private long evicted;
    private long missingAfterFault;
    private long phantom;
    private long bytes;
    /** Per 5-second bucket of the run: {batches, bytes}. */
    private final Map<Integer, long[]> buckets = new TreeMap<>();

    synchronized void batch(long elapsedNanos, long okBytes) {
        batches++;
        bytes += okBytes;
        long[] bucket = buckets.computeIfAbsent((int) (elapsedNanos / BUCKET_NANOS), b -> new long[2]);
        bucket[0]++;
        bucket[1] += okBytes;
    }

    synchronized void ok() {
        ok++;
    }

    synchronized void missing() {
        missing++;
    }

    synchronized void errors(long count, String cause) {
        errors += count;
        errorsByKind.merge(cause, count, Long::sum);
    }

    synchronized void verified() {
        verified++;
    }

    synchronized void corrupted(ObjectContent.Verdict verdict) {
        if (verdict == ObjectContent.Verdict.STALE) {
            stale++;
        } else {
            foreign++;
        }
    }

    /** A key believed stored was reported missing: lost, unless a fault window may explain it. */
    synchronized void expectedPresentButMissing(boolean excusedByFault) {
        if (excusedByFault) {
            missingAfterFault++;
        } else {
            lost++;
        }
    }

    /** A key believed stored was reported missing by an instance that evicts, outside a fault window. */
    synchronized void evicted() {
        evicted++;
    }

    /** A key known to be absent was reported present. */
    synchronized void phantom() {
        phantom++;
    }

    synchronized Snapshot snapshot() {
        Map<Integer, long[]> copy = new TreeMap<>();
        buckets.forEach((b, v) -> copy.put(b, v.clone()));
        return new Snapshot(batches, ok, missing, errors, Collections.unmodifiableMap(new TreeMap<>(errorsByKind)), verified, stale, foreign, lost,
                evicted, missingAfterFault, phantom, bytes, copy);
    }
}
