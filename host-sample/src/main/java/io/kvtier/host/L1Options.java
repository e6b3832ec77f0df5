package io.kvtier.host;

import io.kvtier.hostlib.L1Arena;
import picocli.CommandLine.Option;

/** How a command's L1 arena is backed: lazily, or every page touched before any adapter is created. */
public final class L1Options {
    @Option(names = "--l1-use-lazy", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "back L1 pages on first use (default); --no-l1-use-lazy touches every page first, as RDMA needs")
    boolean lazy;

    /** An arena of {@code size} bytes, backed as the options say. */
    public L1Arena allocate(long size) {
        return L1Arena.allocate(size, L1Arena.DEFAULT_ALIGNMENT, !lazy);
    }
}
