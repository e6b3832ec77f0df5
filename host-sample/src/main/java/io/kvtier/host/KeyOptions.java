package io.kvtier.host;

import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.Json;
import java.util.HexFormat;
import picocli.CommandLine.Option;

/** The fields of one object key, as LMCache's multiprocess host builds it. */
final class KeyOptions {
    @Option(names = "--model", required = true, paramLabel = "M", description = "model name")
    String model;

    @Option(names = "--kv-rank", required = true, paramLabel = "R", description = "packed KV rank (decimal)")
    long kvRank;

    @Option(names = "--group", paramLabel = "G", description = "object group id (default 0)")
    long group;

    @Option(names = "--salt", paramLabel = "S", description = "cache salt (default none)")
    String salt = "";

    @Option(names = "--hash", required = true, paramLabel = "HEX", description = "chunk hash, hex")
    String hash;

    /** The largest kv rank: the wire key holds it as 8 hex digits. */
    static final long MAX_KV_RANK = 0xFFFF_FFFFL;

    ObjectKey key() {
        requireText("--model", model, false);
        requireText("--salt", salt, true);
        if (kvRank < 0 || kvRank > MAX_KV_RANK) {
            throw new IllegalArgumentException("--kv-rank must be between 0 and " + MAX_KV_RANK
                    + " (the key holds it as 8 hex digits), got " + kvRank);
        }
        if (group < 0) {
            throw new IllegalArgumentException("--group must be 0 or more, got " + group);
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
