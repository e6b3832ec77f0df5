package io.kvtier.spi;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The identity of one KV-cache chunk. {@link #wireString()} renders LMCache's multiprocess
 * key byte for byte, so a Java host and a Python LMCache host share one Mooncake cluster:
 * {@code model@<kvRank %08x>@<group %x>@<hash hex>[@salt]}.
 */
public final class ObjectKey {
    public static final int MAX_SALT_LENGTH = 128;

    private final byte[] chunkHash;
    private final String modelName;
    private final long kvRank;
    private final long objectGroupId;
    private final String cacheSalt;
    private final String wire;

    public ObjectKey(byte[] chunkHash, String modelName, long kvRank, long objectGroupId, String cacheSalt) {
        Objects.requireNonNull(chunkHash, "chunkHash");
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(cacheSalt, "cacheSalt");
        if (modelName.indexOf('@') >= 0) {
            throw new IllegalArgumentException("model_name must not contain '@' (got '" + modelName + "')");
        }
        if (kvRank < 0) {
            throw new IllegalArgumentException("kv_rank must be >= 0 (got " + kvRank + ")");
        }
        if (objectGroupId < 0) {
            throw new IllegalArgumentException("object_group_id must be >= 0 (got " + objectGroupId + ")");
        }
        for (char forbidden : new char[] {'@', '/', '\\', '\0'}) {
            if (cacheSalt.indexOf(forbidden) >= 0) {
                throw new IllegalArgumentException("cache_salt must not contain '@', '/', '\\' or NUL (got '"
                        + cacheSalt.replace("\0", "\\0") + "')");
            }
        }
        if (cacheSalt.length() > MAX_SALT_LENGTH) {
            throw new IllegalArgumentException(
                    "cache_salt exceeds max length " + MAX_SALT_LENGTH + " (got " + cacheSalt.length() + ")");
        }
        this.chunkHash = chunkHash.clone();
        this.modelName = modelName;
        this.kvRank = kvRank;
        this.objectGroupId = objectGroupId;
        this.cacheSalt = cacheSalt;
        this.wire = render();
    }

    public ObjectKey(byte[] chunkHash, String modelName, long kvRank) {
        this(chunkHash, modelName, kvRank, 0, "");
    }

    /** LMCache's {@code ComputeKVRank}: the four fields packed one byte each (world size highest). */
    public static long kvRank(int worldSize, int globalRank, int localWorldSize, int localRank) {
        return ((long) worldSize << 24) | ((long) globalRank << 16) | ((long) localWorldSize << 8) | localRank;
    }

    private String render() {
        StringBuilder sb = new StringBuilder(modelName.length() + 24 + chunkHash.length * 2 + cacheSalt.length());
        sb.append(modelName).append('@');
        String rank = Long.toHexString(kvRank);
        sb.append("0".repeat(Math.max(0, 8 - rank.length()))).append(rank).append('@');
        sb.append(Long.toHexString(objectGroupId)).append('@');
        sb.append(HexFormat.of().formatHex(chunkHash));
        if (!cacheSalt.isEmpty()) {
            sb.append('@').append(cacheSalt);
        }
        return sb.toString();
    }

    public String wireString() {
        return wire;
    }

    public byte[] chunkHash() {
        return chunkHash.clone();
    }

    public String modelName() {
        return modelName;
    }

    public long kvRank() {
        return kvRank;
    }

    public long objectGroupId() {
        return objectGroupId;
    }

    public String cacheSalt() {
        return cacheSalt;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObjectKey other && wire.equals(other.wire) && Arrays.equals(chunkHash, other.chunkHash);
    }

    @Override
    public int hashCode() {
        return wire.hashCode();
    }

    @Override
    public String toString() {
        return wire;
    }
}
