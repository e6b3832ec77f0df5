package io.kvtier.host;

import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.Json;
import java.util.HexFormat;
import picocli.CommandLine.Option;

/** The fields of one object key, as LMCache's multiprocess host builds it. */
final class KeyOptions {
    @Option(names = "--model", required = true, paramLabel = "M",
            description = "model name, at most " + MAX_MODEL_LENGTH + " characters")
    String model;

    @Option(names = "--kv-rank", required = true, paramLabel = "R", description = "packed KV rank (decimal)")
    long kvRank;

    @Option(names = "--group", paramLabel = "G", description = "object group id (default 0)")
    long group;

    @Option(names = "--salt", paramLabel = "S", description = "cache salt (default none)")
    String salt = "";

    @Option(names = "--hash", required = true, paramLabel = "HEX",
            description = "chunk hash, 2 to " + 2 * MAX_HASH_BYTES + " hex digits")
    String hash;

    /** The largest kv rank: the wire key holds it as 8 hex digits. */
    static final long MAX_KV_RANK = 0xFFFF_FFFFL;
    /**
     * The longest chunk hash, in bytes. A chunk hash is a digest of the chunk's tokens: 32 bytes
     * with SHA-256 (vLLM's prefix cache), 16 with xxHash-128; 64 bytes hold even a SHA-512.
     */
    static final int MAX_HASH_BYTES = 64;
    /**
     * The longest model name, in characters: a Hugging Face id or a path, far shorter. With the
     * other fields at their longest (rank 8 hex digits, group 16, hash 128, salt 128 characters,
     * four '@', every character 3 bytes of UTF-8), a key is then 3612 bytes at most, within the
     * 4096 that Mooncake takes (its HA master refuses a longer key: kMaxOpLogObjectKeySize).
     */
    static final int MAX_MODEL_LENGTH = 1024;

    ObjectKey key() {
        requireText("--model", model, false);
        if (model.length() > MAX_MODEL_LENGTH) {
            throw new IllegalArgumentException("--model must be at most " + MAX_MODEL_LENGTH + " characters, got "
                    + model.length() + ": " + Json.render(model));
        }
        requireText("--salt", salt, true);
        if (kvRank < 0 || kvRank > MAX_KV_RANK) {
            throw new IllegalArgumentException("--kv-rank must be between 0 and " + MAX_KV_RANK
                    + " (the key holds it as 8 hex digits), got " + kvRank);
        }
        if (group < 0) {
            throw new IllegalArgumentException("--group must be 0 or more, got " + group);
        }
        if (hash.length() > 2 * MAX_HASH_BYTES) {
            throw new IllegalArgumentException("--hash must be at most " + 2 * MAX_HASH_BYTES + " hex digits ("
                    + MAX_HASH_BYTES + " bytes), got " + hash.length() + ": " + Json.render(hash));
        }
        byte[] bytes;
        try {
            bytes = HexFormat.of().parseHex(hash);
        } catch (IllegalArgumentException e) {
            bytes = new byte[0];
        }
        if (bytes.length == 0) {
            throw new IllegalArgumentException("--hash must be a non-empty, even number of hex digits, got "
                    + Json.render(hash));
        }
        return new ObjectKey(bytes, model, kvRank, group, salt);
    }

    /** Text that becomes part of a key: a control character or a newline there is never meant. */
    private static void requireText(String option, String value, boolean mayBeEmpty) {
        if (value.isEmpty() && !mayBeEmpty) {
            throw new IllegalArgumentException(option + " must not be empty");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(option + " must not contain control characters, got " + Json.render(value));
        }
    }
}
