package io.kvtier.host.replay;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The traces the replay tests read. */
final class ReplayTraces {
    /** The first 500 requests of Mooncake's FAST'25 conversation trace, gzipped: 14,162 blocks. */
    static final Path CONVERSATION_500 = resource("/traces/conversation-500.jsonl.gz");
    /** The whole trace, as the repository keeps it (traces/README.md). */
    static final Path CONVERSATION_FULL = Path.of("../traces/mooncake-fast25-conversation.jsonl.gz");

    private ReplayTraces() {}

    private static Path resource(String name) {
        try {
            return Path.of(ReplayTraces.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
