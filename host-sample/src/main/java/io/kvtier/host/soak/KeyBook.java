package io.kvtier.host.soak;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Predicate;

/**
 * What the soak knows about each key of one instance. A thread claims the keys of a batch before
 * it operates on them and releases them when the batch is judged, so no two operations ever touch
 * one key at once and each key's expected state is exact. The claim's atomic write and read order
 * the plain reads and writes of the state between owners.
 */
final class KeyBook {
    enum State {
        /**
         * Known not to be stored: never stored in this run, or deleted (or reported missing by a
         * delete) by a delete begun at {@link Entry#sinceNanos}.
         */
        ABSENT,
        /**
         * Stored: the store of {@link Entry#version}, begun at {@link Entry#sinceNanos}, was
         * acknowledged OK. A fault may have hit the object from the moment its store began.
         */
        PRESENT,
        /** May or may not hold {@link Entry#version}: a store or delete failed, or the key was lost. */
        UNKNOWN
    }

    /**
     * @param sinceNanos for a present key, when the store of its version began; for a deleted one, when the delete began
     * @param judged     of a PRESENT entry: an answer after a fault that may have hit the object has said
     *                   what became of it ({@link AfterFault})
     */
    record Entry(State state, long version, long sinceNanos, boolean judged) {
        static final Entry NEVER_STORED = new Entry(State.ABSENT, 0, Long.MAX_VALUE);

        Entry(State state, long version, long sinceNanos) {
            this(state, version, sinceNanos, false);
        }

        static Entry deleted(long startNanos) {
            return new Entry(State.ABSENT, 0, startNanos);
        }

        boolean neverStored() {
            return sinceNanos == Long.MAX_VALUE;
        }

        Entry asJudged() {
            return new Entry(state, version, sinceNanos, true);
        }
    }

    private final AtomicIntegerArray claimed;
    private final Entry[] entries;
    /** The last version handed out per key, so every store attempt writes a version never written before. */
    private final long[] versions;

    KeyBook(int keys) {
        claimed = new AtomicIntegerArray(keys);
        entries = new Entry[keys];
        Arrays.fill(entries, Entry.NEVER_STORED);
        versions = new long[keys];
    }

    int size() {
        return entries.length;
    }

    /** Claims up to {@code count} distinct random keys that no other thread holds; may claim fewer. */
    int[] claim(SplittableRandom random, int count) {
        int[] keys = new int[count];
        int n = 0;
        for (int attempt = 0; attempt < count * 4 && n < count; attempt++) {
            int key = random.nextInt(entries.length);
            if (claimed.compareAndSet(key, 0, 1)) {
                keys[n++] = key;
            }
        }
        return Arrays.copyOf(keys, n);
    }

    /**
     * Claims for good up to {@code count} keys known present, and returns them: no operation
     * touches them again, so whether the store still holds them at the end is certain.
     */
    int[] seal(int count) {
        int[] sealed = new int[count];
        int n = 0;
        for (int key = 0; key < entries.length && n < count; key++) {
            if (claimed.compareAndSet(key, 0, 1)) {
                if (entries[key].state() == State.PRESENT) {
                    sealed[n++] = key;
                } else {
                    claimed.set(key, 0);
                }
            }
        }
        return Arrays.copyOf(sealed, n);
    }

    /** Counts the entries that match among the keys no thread holds; sealed keys stay held for good. */
    int countUnclaimed(Predicate<Entry> matching) {
        int n = 0;
        for (int key = 0; key < entries.length; key++) {
            if (claimed.get(key) == 0 && matching.test(entries[key])) {
                n++;
            }
        }
        return n;
    }

    void release(int[] keys) {
        for (int key : keys) {
            claimed.set(key, 0);
        }
    }

    /** Only for the thread that holds the key's claim. */
    Entry get(int key) {
        return entries[key];
    }

    /** Only for the thread that holds the key's claim. */
    void set(int key, Entry entry) {
        entries[key] = entry;
    }

    /** Only for the thread that holds the key's claim. */
    long nextVersion(int key) {
        return ++versions[key];
    }
}
