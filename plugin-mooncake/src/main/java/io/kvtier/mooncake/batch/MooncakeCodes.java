package io.kvtier.mooncake.batch;

import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import java.util.Map;

/**
 * Mooncake's error codes ({@code mooncake-store/include/types.h}): their names, for readable
 * per-key errors, and their class, which decides whether an operation may try a key again.
 */
public final class MooncakeCodes {
    static final long INTERNAL_ERROR = -1;
    public static final long NO_AVAILABLE_HANDLE = -200;
    static final long INVALID_PARAMS = -600;
    static final long REPLICA_IS_NOT_READY = -703;
    public static final long OBJECT_NOT_FOUND = -704;
    static final long OBJECT_ALREADY_EXISTS = -705;
    static final long OBJECT_HAS_LEASE = -706;
    static final long LEASE_EXPIRED = -707;
    public static final long TRANSFER_FAIL = -800;
    static final long CHECKSUM_MISMATCH = -801;
    public static final long RPC_FAIL = -900;
    static final long RPC_TIMEOUT = -901;
    /** The connector's KVT_ON_SUSPECT_NODES: every replica of the key is on a suspect storage node. */
    public static final long ON_SUSPECT_NODES = -9100;

    /** What a code means for the key it was reported for. */
    enum Kind {
        /** The object is not there: a miss, not an error. */
        MISS,
        /** The master or a transfer failed for now (a restart, a remount, a lost node): the same call may succeed later. */
        TRANSIENT,
        /** Anything else: the same call would fail the same way. */
        PERMANENT
    }

    private static final Map<Long, String> NAMES = Map.ofEntries(
            Map.entry(INTERNAL_ERROR, "INTERNAL_ERROR"),
            Map.entry(-10L, "BUFFER_OVERFLOW"),
            Map.entry(-100L, "SHARD_INDEX_OUT_OF_RANGE"),
            Map.entry(-101L, "SEGMENT_NOT_FOUND"),
            Map.entry(-102L, "SEGMENT_ALREADY_EXISTS"),
            Map.entry(-103L, "CLIENT_NOT_FOUND"),
            Map.entry(NO_AVAILABLE_HANDLE, "NO_AVAILABLE_HANDLE"),
            Map.entry(-300L, "INVALID_VERSION"),
            Map.entry(-400L, "INVALID_KEY"),
            Map.entry(-500L, "WRITE_FAIL"),
            Map.entry(INVALID_PARAMS, "INVALID_PARAMS"),
            Map.entry(-601L, "ILLEGAL_CLIENT"),
            Map.entry(-700L, "INVALID_WRITE"),
            Map.entry(-701L, "INVALID_READ"),
            Map.entry(-702L, "INVALID_REPLICA"),
            Map.entry(REPLICA_IS_NOT_READY, "REPLICA_IS_NOT_READY"),
            Map.entry(OBJECT_NOT_FOUND, "OBJECT_NOT_FOUND"),
            Map.entry(OBJECT_ALREADY_EXISTS, "OBJECT_ALREADY_EXISTS"),
            Map.entry(OBJECT_HAS_LEASE, "OBJECT_HAS_LEASE"),
            Map.entry(LEASE_EXPIRED, "LEASE_EXPIRED"),
            Map.entry(-710L, "REPLICA_NOT_FOUND"),
            Map.entry(-711L, "REPLICA_ALREADY_EXISTS"),
            Map.entry(-712L, "REPLICA_IS_GONE"),
            Map.entry(-714L, "OBJECT_REPLICA_BUSY"),
            Map.entry(TRANSFER_FAIL, "TRANSFER_FAIL"),
            Map.entry(CHECKSUM_MISMATCH, "CHECKSUM_MISMATCH"),
            Map.entry(RPC_FAIL, "RPC_FAIL"),
            Map.entry(RPC_TIMEOUT, "RPC_TIMEOUT"),
            Map.entry(-1012L, "NOT_SUPPORTED"),
            Map.entry(-1700L, "TENANT_QUOTA_EXCEEDED"),
            Map.entry(ON_SUSPECT_NODES, "ON_SUSPECT_NODES"));

    private MooncakeCodes() {}

    static Kind kind(long code) {
        if (code == OBJECT_NOT_FOUND) {
            return Kind.MISS;
        }
        if (code == RPC_FAIL || code == RPC_TIMEOUT || code == REPLICA_IS_NOT_READY || code == LEASE_EXPIRED
                || code == TRANSFER_FAIL || code == ON_SUSPECT_NODES) {
            return Kind.TRANSIENT;
        }
        return Kind.PERMANENT;
    }

    /**
     * A key's error for a code that is not a miss: {@code what} failed for that key, with the
     * code's name. NO_AVAILABLE_HANDLE means no segment had room for the object.
     */
    public static KeyError keyError(long code, String what) {
        ErrorKind kind = code == NO_AVAILABLE_HANDLE ? ErrorKind.NO_CAPACITY
                : kind(code) == Kind.TRANSIENT ? ErrorKind.TRANSIENT : ErrorKind.PERMANENT;
        return KeyError.of(kind, code, what + ": " + describe(code));
    }

    /** {@code NAME (code)}, or the bare code when Mooncake has no name for it here; a hint where the cause is known. */
    public static String describe(long code) {
        String name = NAMES.get(code);
        String described = name == null ? Long.toString(code) : name + " (" + code + ")";
        if (code == NO_AVAILABLE_HANDLE) {
            return described + ": no segment has room for it; is any client contributing global_segment_size?";
        }
        if (code == CHECKSUM_MISMATCH) {
            return described + ": every replica's bytes differ from the object's checksum (written after its put);"
                    + " the object was removed, so that a store can replace it";
        }
        return described;
    }
}
