package io.kvtier.host;

import io.kvtier.spi.ObjectKey;
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

    ObjectKey key() {
        byte[] bytes;
        try {
            bytes = HexFormat.of().parseHex(hash);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--hash must be an even number of hex digits, got '" + hash + "'");
        }
        return new ObjectKey(bytes, model, kvRank, group, salt);
    }
}
