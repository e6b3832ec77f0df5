package io.kvtier.mooncake.batch;

import io.kvtier.mooncake.AdapterMetrics;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.BatchOutcome;
import io.kvtier.toolkit.KeyLocks;
import io.kvtier.toolkit.UsageTracker;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the per-key answers of one native batch call into per-key outcomes, and keeps what they
 * imply: a lock for each key found, usage for the keys stored, loaded and deleted, and the
 * metrics. Each call says only how it reads one answer; the walk over the answers is here once.
 */
public final class NativeResults {
    /** How each native call answers for one key, and what Mooncake calls it in an error. */
    enum Call {
        /** 0 stored, else a negative Mooncake code. */
        STORE("batch_put_from"),
        /** 1 exists, 0 missing, else a negative Mooncake code. */
        LOOKUP("batchIsExist") {
            @Override
            KeyResult read(long rc, long expected) {
                return rc == 1 ? KeyResult.OK : rc == 0 ? KeyResult.MISSING : KeyResult.ERROR;
            }
        },
        /** The bytes read, else a negative Mooncake code. */
        LOAD("batch_get_into") {
            @Override
            KeyResult read(long rc, long expected) {
                return rc == expected ? KeyResult.OK : rc == MooncakeCodes.OBJECT_NOT_FOUND ? KeyResult.MISSING : KeyResult.ERROR;
            }

            @Override
            KeyError error(long rc, long expected, ObjectKey key) {
                if (rc < 0) {
                    return super.error(rc, expected, key);
                }
                // Mooncake accepts a buffer larger than the object; the tail would be stale.
                return KeyError.of(ErrorKind.PERMANENT, (rc < expected ? "short read" : "oversized read") + " for key "
                        + key + ": Mooncake returned " + rc + " bytes, expected " + expected);
            }
        },
        /** 0 removed, OBJECT_NOT_FOUND missing, else a negative Mooncake code. */
        DELETE("batchRemove") {
            @Override
            KeyResult read(long rc, long expected) {
                return rc == MooncakeCodes.OBJECT_NOT_FOUND ? KeyResult.MISSING : super.read(rc, expected);
            }
        };

        private final String mooncakeName;

        Call(String mooncakeName) {
            this.mooncakeName = mooncakeName;
        }

        /** @param expected the key's object size, for the calls that move bytes */
        KeyResult read(long rc, long expected) {
            return rc == 0 ? KeyResult.OK : KeyResult.ERROR;
        }

        /** The error of a key whose answer {@link #read} as ERROR. */
        KeyError error(long rc, long expected, ObjectKey key) {
            return MooncakeCodes.keyError(rc, "Mooncake " + mooncakeName + " failed for key " + key);
        }
    }

    /** The answers that were not errors (those are in the outcome already), in batch order. */
    private record Sorted(List<Integer> okAt, List<ObjectKey> ok, List<Long> okSizes, List<ObjectKey> missing) {
        long okBytes() {
            return okSizes.stream().mapToLong(Long::longValue).sum();
        }
    }

    private final UsageTracker usage;
    private final KeyLocks locks;
    private final AdapterMetrics metrics;

    public NativeResults(UsageTracker usage, KeyLocks locks, AdapterMetrics metrics) {
        this.usage = usage;
        this.locks = locks;
        this.metrics = metrics;
    }

    /**
     * A re-stored key is reported to listeners with size 0 and adds no bytes, as in LMCache.
     *
     * @param rc the answers for the batch's buffers that went to native code (none when none did)
     */
    BatchResult stored(List<ObjectKey> keys, CheckedBuffers batch, long[] rc) {
        BatchOutcome outcome = new BatchOutcome(keys.size());
        batch.reportRejections(outcome);
        Sorted sorted = sort(Call.STORE, outcome, keys, batch.nativeIndices(), batch.sizes(), rc);
        long[] newBytesPerKey = usage.recordStoredPerKey(sorted.ok(), sorted.okSizes());
        long newBytes = 0;
        for (int k = 0; k < newBytesPerKey.length; k++) {
            outcome.ok(sorted.okAt().get(k), newBytesPerKey[k]);
            newBytes += newBytesPerKey[k];
        }
        metrics.bytesStored.mark(sorted.okBytes());
        return finish(outcome, newBytes);
    }

    /** Every key found is locked until the host unlocks it; a missing one was evicted, if it was ever stored. */
    BatchResult found(List<ObjectKey> keys, long[] rc) {
        BatchOutcome outcome = new BatchOutcome(keys.size());
        Sorted sorted = sort(Call.LOOKUP, outcome, keys, null, null, rc);
        usage.recordMissing(sorted.missing());
        for (int k = 0; k < sorted.ok().size(); k++) {
            outcome.ok(sorted.okAt().get(k));
            locks.lock(sorted.ok().get(k));
        }
        metrics.hits.inc(sorted.ok().size());
        metrics.misses.inc(sorted.missing().size());
        return finish(outcome, 0);
    }

    /** @param rc as for {@link #stored} */
    BatchResult loaded(List<ObjectKey> keys, CheckedBuffers batch, long[] rc) {
        BatchOutcome outcome = new BatchOutcome(keys.size());
        batch.reportRejections(outcome);
        Sorted sorted = sort(Call.LOAD, outcome, keys, batch.nativeIndices(), batch.sizes(), rc);
        for (int k = 0; k < sorted.ok().size(); k++) {
            outcome.ok(sorted.okAt().get(k), sorted.okSizes().get(k));
        }
        usage.recordAccessed(sorted.ok());
        usage.recordMissing(sorted.missing());
        metrics.bytesLoaded.mark(sorted.okBytes());
        return finish(outcome, 0);
    }

    /** A missing key is no longer counted either: Mooncake may have evicted it on its own. */
    BatchResult deleted(List<ObjectKey> keys, long[] rc) {
        BatchOutcome outcome = new BatchOutcome(keys.size());
        Sorted sorted = sort(Call.DELETE, outcome, keys, null, null, rc);
        sorted.okAt().forEach(outcome::ok);
        List<ObjectKey> gone = new ArrayList<>(sorted.ok());
        gone.addAll(sorted.missing());
        usage.recordDeleted(gone);
        return finish(outcome, 0);
    }

    /**
     * Reads every answer: marks the misses and errors in {@code outcome}, and returns the rest for
     * the caller to mark, since what an OK means differs by call.
     *
     * @param at    the batch position of each answer, or null when answer j is for key j
     * @param sizes the object size of each answer, or null when the call moves no bytes
     */
    private static Sorted sort(Call call, BatchOutcome outcome, List<ObjectKey> keys, int[] at, long[] sizes, long[] rc) {
        Sorted sorted = new Sorted(new ArrayList<>(rc.length), new ArrayList<>(rc.length), new ArrayList<>(rc.length),
                new ArrayList<>());
        for (int j = 0; j < rc.length; j++) {
            int i = at == null ? j : at[j];
            long expected = sizes == null ? 0 : sizes[j];
            switch (call.read(rc[j], expected)) {
                case OK -> {
                    sorted.okAt().add(i);
                    sorted.ok().add(keys.get(i));
                    sorted.okSizes().add(expected);
                }
                case MISSING -> {
                    outcome.missing(i);
                    sorted.missing().add(keys.get(i));
                }
                case ERROR -> outcome.error(i, call.error(rc[j], expected, keys.get(i)));
            }
        }
        return sorted;
    }

    private BatchResult finish(BatchOutcome outcome, long newBytes) {
        metrics.errors.inc(outcome.errors());
        return outcome.build(newBytes);
    }
}
