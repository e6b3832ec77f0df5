package io.kvtier.host.soak;

import io.kvtier.host.ErrorGroup;
import io.kvtier.host.FailurePacer;
import io.kvtier.hostlib.BatchTimeoutException;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Runs one operation on keys the calling thread has claimed, and judges every per-key answer
 * against the key book: what was stored, what is absent, what is unknown.
 */
final class Operations {
    static final String MODEL = "kvtier-soak";

    private final Soak.Options options;
    private final ObjectContent content;
    private final List<ObjectKey[]> wireKeys = new ArrayList<>();
    private final long startNanos;
    /** Where each corrupted load and each lost key is described, for whoever looks for the cause. */
    private final PrintWriter err;

    /** @param runId part of every key and object, so a shared store never answers with a former run's objects */
    Operations(List<Target> targets, Soak.Options options, long runId, long startNanos, PrintWriter err) {
        this.options = options;
        this.err = err;
        this.content = new ObjectContent(runId);
        this.startNanos = startNanos;
        for (Target target : targets) {
            ObjectKey[] keys = new ObjectKey[options.keys()];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = wireKey(runId, target.index, k);
            }
            wireKeys.add(keys);
        }
    }

    /** The key under which the run stores {@code key} of the instance at {@code index}. */
    static ObjectKey wireKey(long runId, int index, int key) {
        return new ObjectKey(ByteBuffer.allocate(16).putLong(runId).putInt(index).putInt(key).array(), MODEL, 0);
    }

    /** @param slices the thread's own L1 slices, at least one per key */
    void run(Op op, Target target, int[] keys, List<L1Slice> slices) {
        switch (op) {
            case STORE -> store(target, keys, slices);
            case LOOKUP -> lookup(target, keys);
            case LOAD -> load(target, keys, slices);
            case DELETE -> delete(target, keys);
        }
    }

    /**
     * Writes a new version of each key. A store of a key that exists keeps the first value, so keys
     * not known to be absent are deleted first (counted as deletes), and only those then absent are
     * stored. A key deleted before a fault is not known to be absent: a master restored from a
     * snapshot taken before the delete brings its old object back.
     */
    private void store(Target target, int[] keys, List<L1Slice> slices) {
        int[] inDoubt = Arrays.stream(keys).filter(k -> !knownAbsent(target, target.book.get(k))).toArray();
        if (inDoubt.length > 0) {
            delete(target, inDoubt);
        }
        // What is absent now: a restore after that delete would come in a window, which excuses this store.
        int[] absent = Arrays.stream(keys).filter(k -> target.book.get(k).state() == KeyBook.State.ABSENT).toArray();
        if (absent.length == 0) {
            return;
        }
        long[] versions = new long[absent.length];
        List<L1Slice> sources = slices.subList(0, absent.length);
        for (int i = 0; i < absent.length; i++) {
            versions[i] = target.book.nextVersion(absent[i]);
            content.fill(sources.get(i).buffer(), target.index, absent[i], versions[i]);
        }
        OpStats stats = target.stats(Op.STORE);
        long start = System.nanoTime();
        BatchResult result = call(target, Op.STORE, absent.length, () -> target.adapter.store(keys(target, absent), sources));
        long now = System.nanoTime();
        long okBytes = 0;
        for (int i = 0; i < absent.length; i++) {
            KeyResult outcome = result == null ? KeyResult.ERROR : result.get(i);
            if (outcome == KeyResult.OK) {
                stats.ok();
                okBytes += options.chunkSize();
                target.book.set(absent[i], new KeyBook.Entry(KeyBook.State.PRESENT, versions[i], start));
            } else {
                if (outcome == KeyResult.MISSING) {
                    stats.missing();
                }
                target.book.set(absent[i], new KeyBook.Entry(KeyBook.State.UNKNOWN, versions[i], 0));
            }
        }
        stats.batch(bucketTime(now), okBytes);
    }

    private void lookup(Target target, int[] keys) {
        List<ObjectKey> asked = keys(target, keys);
        OpStats stats = target.stats(Op.LOOKUP);
        long askedAt = System.nanoTime();
        BatchResult result = call(target, Op.LOOKUP, keys.length, () -> target.adapter.lookupAndLock(asked));
        // The soak holds no lock beyond its own batch; a failed batch may have taken some, and unknown keys are ignored.
        target.adapter.unlock(asked);
        if (result != null) {
            for (int i = 0; i < keys.length; i++) {
                KeyBook.Entry known = target.book.get(keys[i]);
                if (result.get(i) != KeyResult.ERROR) {
                    answered(target, keys[i], known, askedAt);
                }
                if (result.get(i) == KeyResult.OK) {
                    stats.ok();
                    if (known.state() == KeyBook.State.ABSENT) {
                        stats.phantom();
                    }
                } else if (result.get(i) == KeyResult.MISSING) {
                    stats.missing();
                    missingWhere(target, Op.LOOKUP, stats, keys[i], known);
                }
            }
        }
        stats.batch(bucketTime(System.nanoTime()), 0);
    }

    private void load(Target target, int[] keys, List<L1Slice> slices) {
        List<L1Slice> targetsInL1 = slices.subList(0, keys.length);
        targetsInL1.forEach(L1Arena::zero); // a load that writes nothing must not verify
        OpStats stats = target.stats(Op.LOAD);
        long askedAt = System.nanoTime();
        BatchResult result = call(target, Op.LOAD, keys.length, () -> target.adapter.load(keys(target, keys), targetsInL1));
        long now = System.nanoTime();
        long okBytes = 0;
        if (result != null) {
            for (int i = 0; i < keys.length; i++) {
                KeyBook.Entry known = target.book.get(keys[i]);
                if (result.get(i) != KeyResult.ERROR) {
                    answered(target, keys[i], known, askedAt);
                }
                if (result.get(i) == KeyResult.OK) {
                    stats.ok();
                    okBytes += options.chunkSize();
                    if (known.state() == KeyBook.State.ABSENT) {
                        stats.phantom();
                        continue;
                    }
                    ObjectContent.Verdict verdict = content.check(targetsInL1.get(i).buffer(), target.index, keys[i],
                            known.version());
                    if (verdict == ObjectContent.Verdict.VERIFIED) {
                        stats.verified();
                        if (known.state() == KeyBook.State.UNKNOWN) {
                            target.book.set(keys[i], new KeyBook.Entry(KeyBook.State.PRESENT, known.version(), now));
                        }
                    } else {
                        stats.corrupted(verdict);
                        err.printf("kvtier: soak %.1f s: instance %d key %d, expected version %d (%s), loaded %s%n",
                                (now - startNanos) / 1e9, target.index, keys[i], known.version(), known.state(),
                                content.whose(targetsInL1.get(i).buffer()));
                        err.flush();
                    }
                } else if (result.get(i) == KeyResult.MISSING) {
                    stats.missing();
                    missingWhere(target, Op.LOAD, stats, keys[i], known);
                }
            }
        }
        stats.batch(bucketTime(now), okBytes);
    }

    private void delete(Target target, int[] keys) {
        OpStats stats = target.stats(Op.DELETE);
        long askedAt = System.nanoTime();
        BatchResult result = call(target, Op.DELETE, keys.length, () -> target.adapter.delete(keys(target, keys)));
        for (int i = 0; i < keys.length; i++) {
            KeyBook.Entry known = target.book.get(keys[i]);
            KeyResult outcome = result == null ? KeyResult.ERROR : result.get(i);
            if (outcome != KeyResult.ERROR) {
                answered(target, keys[i], known, askedAt);
            }
            if (outcome == KeyResult.OK) {
                stats.ok();
                if (known.state() == KeyBook.State.ABSENT) {
                    stats.phantom();
                }
                target.book.set(keys[i], KeyBook.Entry.deleted(askedAt));
            } else if (outcome == KeyResult.MISSING) {
                stats.missing();
                if (known.state() == KeyBook.State.PRESENT) {
                    expectedPresentButMissing(target, Op.DELETE, stats, keys[i], known);
                }
                target.book.set(keys[i], KeyBook.Entry.deleted(askedAt));
            } else if (known.state() != KeyBook.State.ABSENT) {
                // A failed delete may or may not have removed it; a delete cannot create a key that was absent.
                if (atRiskUnjudged(target, known)) {
                    target.afterFault.notJudged(1);
                }
                target.book.set(keys[i], new KeyBook.Entry(KeyBook.State.UNKNOWN, known.version(), 0));
            }
        }
        stats.batch(bucketTime(System.nanoTime()), 0);
    }

    /** Batches that end while the soak drains count in its last bucket, not in a sliver of a bucket after it. */
    private long bucketTime(long now) {
        return Math.min(now - startNanos, options.durationNanos() - 1);
    }

    /**
     * A lookup, load or delete asked at {@code askedAt} answered OK or MISSING for the key: if a fault
     * may have hit its object since its store, that answer judges it, once per stored version.
     */
    private static void answered(Target target, int key, KeyBook.Entry known, long askedAt) {
        if (known.state() == KeyBook.State.PRESENT && !known.judged()
                && target.faults.judges(known.sinceNanos(), askedAt)) {
            target.afterFault.judged();
            target.book.set(key, known.asJudged());
        }
    }

    /** A stored object a fault may have hit, of which no answer since has said what became of it. */
    static boolean atRiskUnjudged(Target target, KeyBook.Entry known) {
        return known.state() == KeyBook.State.PRESENT && !known.judged() && target.faults.hitBy(known.sinceNanos());
    }

    /** A key believed stored was reported missing: lost, evicted or missing after a fault; from now on it is unknown. */
    private void missingWhere(Target target, Op op, OpStats stats, int key, KeyBook.Entry known) {
        if (known.state() == KeyBook.State.PRESENT) {
            expectedPresentButMissing(target, op, stats, key, known);
            target.book.set(key, new KeyBook.Entry(KeyBook.State.UNKNOWN, known.version(), 0));
        }
    }

    /**
     * Counts the key lost unless a fault window excuses it or the instance evicts. A lost key, or one
     * missing after a fault, is described on stderr, to be traced; an evicted one is not: a cache that
     * lives full evicts all along.
     */
    private void expectedPresentButMissing(Target target, Op op, OpStats stats, int key, KeyBook.Entry known) {
        boolean excused = target.faults.excuses(known.sinceNanos());
        if (!excused && options.evicting()) {
            stats.evicted();
            return;
        }
        stats.expectedPresentButMissing(excused);
        err.printf("kvtier: soak %.1f s: instance %d key %d, version %d stored from %.1f s, %s: a %s says missing%n",
                (System.nanoTime() - startNanos) / 1e9, target.index, key, known.version(),
                (known.sinceNanos() - startNanos) / 1e9, excused ? "missing after a fault" : "lost",
                op.name().toLowerCase());
        err.flush();
    }

    /**
     * Loads each of the target's sealed keys once, into {@code slices}, outside the statistics:
     * they are the harness's check, not the workload. A missing or corrupted one is described on stderr;
     * one missing from an instance that evicts is counted evicted, and not described.
     */
    Sealed readSealed(Target target, List<L1Slice> slices) {
        int[] sealed = target.sealed;
        long verified = 0;
        long missing = 0;
        long evicted = 0;
        long corrupted = 0;
        long unread = 0;
        for (int from = 0; from < sealed.length; from += slices.size()) {
            int[] keys = Arrays.copyOfRange(sealed, from, Math.min(sealed.length, from + slices.size()));
            List<L1Slice> into = slices.subList(0, keys.length);
            into.forEach(L1Arena::zero);
            BatchResult result;
            try {
                result = target.adapter.load(keys(target, keys), into).join();
            } catch (RuntimeException e) {
                unread += keys.length;
                continue;
            }
            for (int i = 0; i < keys.length; i++) {
                KeyBook.Entry known = target.book.get(keys[i]);
                KeyResult outcome = result.get(i);
                if (outcome == KeyResult.OK) {
                    ObjectContent.Verdict verdict = content.check(into.get(i).buffer(), target.index, keys[i], known.version());
                    if (verdict == ObjectContent.Verdict.VERIFIED) {
                        verified++;
                        continue;
                    }
                    corrupted++;
                } else if (outcome == KeyResult.MISSING && options.evicting()) {
                    evicted++;
                    continue;
                } else if (outcome == KeyResult.MISSING) {
                    missing++;
                } else {
                    unread++;
                    continue;
                }
                err.printf("kvtier: soak: instance %d sealed key %d, version %d stored from %.1f s, %s at the end%n",
                        target.index, keys[i], known.version(), (known.sinceNanos() - startNanos) / 1e9,
                        outcome == KeyResult.OK ? "corrupted" : "missing");
            }
        }
        err.flush();
        return new Sealed(sealed.length, verified, missing, evicted, corrupted, unread);
    }

    /**
     * Runs one batch and counts its errors by kind and code, each of which opens or extends a fault window.
     * A batch that outlives the bound of {@link io.kvtier.hostlib.Instances} ends the soak.
     * @return null when the batch failed as a whole, which counts every key as an error of that failure
     */
    private BatchResult call(Target target, Op op, int keyCount, Supplier<CompletableFuture<BatchResult>> submit) {
        BatchResult result;
        long start = target.waits.begin();
        try {
            result = submit.get().join();
        } catch (RuntimeException e) {
            if (e.getCause() instanceof BatchTimeoutException overdue) {
                // The adapter may still write into this thread's slices, which its next batch reuses: the soak stops.
                throw overdue;
            }
            error(target, op, keyCount, ErrorGroup.label(ErrorGroup.classify(e)));
            target.pacer.batchEnded(true);
            return null;
        } finally {
            target.waits.end(start);
        }
        if (result.size() != keyCount) {
            error(target, op, keyCount, "adapter answered " + result.size() + " results for " + keyCount + " keys");
            target.pacer.batchEnded(true);
            return null;
        }
        ErrorGroup.count(result).forEach((group, n) -> error(target, op, n, group));
        target.pacer.batchEnded(FailurePacer.everyKeyFailed(result));
        return result;
    }

    private static void error(Target target, Op op, long keys, String cause) {
        target.stats(op).errors(keys, cause);
        target.faults.errors(System.nanoTime(), keys, cause);
    }

    private static boolean knownAbsent(Target target, KeyBook.Entry known) {
        return known.state() == KeyBook.State.ABSENT
                && (known.neverStored() || !target.faults.excuses(known.sinceNanos()));
    }

    private List<ObjectKey> keys(Target target, int[] keys) {
        ObjectKey[] all = wireKeys.get(target.index);
        List<ObjectKey> list = new ArrayList<>(keys.length);
        for (int k : keys) {
            list.add(all[k]);
        }
        return list;
    }
}
