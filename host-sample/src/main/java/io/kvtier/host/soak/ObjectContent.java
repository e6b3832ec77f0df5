package io.kvtier.host.soak;

import java.nio.ByteBuffer;

/**
 * The bytes of every object the soak stores, derived from (run, instance, key, version): a header
 * with those four numbers, then a splitmix64 stream seeded from them. Any byte that is wrong, from
 * an older version of the key, or from another key, instance or run is caught on load.
 */
public final class ObjectContent {
    /** run id, instance index, key index, version. */
    public static final int HEADER_BYTES = 24;

    public enum Verdict {
        /** Exactly the expected version. */
        VERIFIED,
        /** Exactly an older version of the same key. */
        STALE,
        /** Anything else: flipped bytes, another key's or instance's object, garbage. */
        FOREIGN
    }

    private final long runId;

    public ObjectContent(long runId) {
        this.runId = runId;
    }

    // Absolute indices in counted loops: the JIT compiles them some 40% faster than relative puts
    // and gets, which a replay makes for every byte it stores and loads. A duplicate is big-endian
    // whatever the buffer's order, so the bytes are the same for every caller.
    public void fill(ByteBuffer buffer, int instance, int key, long version) {
        ByteBuffer view = buffer.duplicate();
        int size = view.capacity();
        view.putLong(0, runId).putInt(8, instance).putInt(12, key).putLong(16, version);
        long state = seed(instance, key, version);
        int at = HEADER_BYTES;
        for (; at <= size - Long.BYTES; at += Long.BYTES) {
            state += GOLDEN_GAMMA;
            view.putLong(at, mix(state));
        }
        long last = mix(state + GOLDEN_GAMMA);
        for (; at < size; at++) {
            view.put(at, (byte) last);
            last >>>= 8;
        }
    }

    public Verdict check(ByteBuffer buffer, int instance, int key, long version) {
        if (matches(buffer, instance, key, version)) {
            return Verdict.VERIFIED;
        }
        ByteBuffer header = buffer.duplicate().clear();
        if (header.getLong() == runId && header.getInt() == instance && header.getInt() == key) {
            long older = header.getLong();
            if (older > 0 && older < version && matches(buffer, instance, key, older)) {
                return Verdict.STALE;
            }
        }
        return Verdict.FOREIGN;
    }

    /** Whose object the bytes are, as far as their header tells: what a corrupted load names. */
    String whose(ByteBuffer buffer) {
        ByteBuffer header = buffer.duplicate().clear();
        long run = header.getLong();
        int instance = header.getInt();
        int key = header.getInt();
        long version = header.getLong();
        if (run != runId) {
            return "no object of this run";
        }
        String whose = String.format("instance %d key %d version %d", instance, key, version);
        return matches(buffer, instance, key, version) ? "the whole object of " + whose
                : "the header of " + whose + ", other bytes after it";
    }

    private boolean matches(ByteBuffer buffer, int instance, int key, long version) {
        ByteBuffer view = buffer.duplicate();
        int size = view.capacity();
        if (view.getLong(0) != runId || view.getInt(8) != instance || view.getInt(12) != key || view.getLong(16) != version) {
            return false;
        }
        long state = seed(instance, key, version);
        int at = HEADER_BYTES;
        for (; at <= size - Long.BYTES; at += Long.BYTES) {
            state += GOLDEN_GAMMA;
            if (view.getLong(at) != mix(state)) {
                return false;
            }
        }
        long last = mix(state + GOLDEN_GAMMA);
        for (; at < size; at++) {
            if (view.get(at) != (byte) last) {
                return false;
            }
            last >>>= 8;
        }
        return true;
    }

    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    private long seed(int instance, int key, long version) {
        return mix(runId ^ mix(((long) instance << 32) | (key & 0xffffffffL)) ^ mix(version * GOLDEN_GAMMA));
    }

    /** splitmix64's finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
