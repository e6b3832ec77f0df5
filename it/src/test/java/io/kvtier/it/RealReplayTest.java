package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigRenderOptions;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.L2Adapter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvtier replay} of the first requests of Mooncake's FAST'25 conversation trace against a
 * real master, through the distribution's CLI, into a storage node whose segment holds far fewer
 * blocks than the requests touch: Mooncake evicts all along. The tier must then do what a host
 * expects of a cache that is full: serve a hit rate near the exact LRU's at the same capacity,
 * never a wrong byte, and no error but a refused store (NO_CAPACITY).
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealReplayTest {
    private static final Path TRACE = HostProcess.ROOT.resolve("traces/mooncake-fast25-conversation.jsonl.gz");
    private static final int REQUESTS = 300;
    private static final int BLOCK = 64 << 10;
    /** An eighth of the 7,814 distinct blocks of the first 300 requests. */
    private static final int CAPACITY_BLOCKS = 1000;

    @Test
    void aReplayThroughAFullClusterHitsNearTheExactLruAndNeverReadsAWrongByte(@TempDir Path dir) throws Exception {
        try (MooncakeMaster master = MooncakeMaster.startOwn(dir);
             L1Arena arena = L1Arena.allocate(L1Arena.DEFAULT_ALIGNMENT, L1Arena.DEFAULT_ALIGNMENT, true)) {
            L2Adapter node = RealInstances.create(master.address(), arena, "node", (long) CAPACITY_BLOCKS * BLOCK, "{}");
            try {
                HostProcess host = HostProcess.installWithMooncakePlugin(dir.resolve("host"));
                HostProcess.Result r = host.kvtier("replay", "--trace", TRACE.toString(), "--requests",
                        String.valueOf(REQUESTS), "--block-size", String.valueOf(BLOCK), "--capacity-blocks",
                        String.valueOf(CAPACITY_BLOCKS), "--out", dir.resolve("out").toString(), "--json",
                        "--l2-adapter", RealInstances.declaration(master.address(), "kvtier", 0, "{}"));
                assertThat(r.exit()).as(r.err() + r.out()).isZero();
                Config report = ConfigFactory.parseString(r.out()).getConfigList("instances").get(0);
                System.out.printf("[replay] %d requests of 64 KiB blocks into %d blocks: hit rate %.4f, exact LRU "
                                + "%.4f, unbounded %.4f; store errors %s; found then missing %d; prefix fetch p50 %.3f ms%n",
                        REQUESTS, CAPACITY_BLOCKS, report.getDouble("hit_rate"), report.getDouble("lru_hit_rate"),
                        report.getDouble("max_hit_rate"), report.getValue("store_errors").render(ConfigRenderOptions.concise()),
                        report.getLong("found_then_missing"), report.getDouble("prefix_fetch_ms.p50"));

                assertThat(report.getLong("corrupted")).as("corrupted blocks").isZero();
                assertThat(report.getDouble("hit_rate")).as("hit rate against the exact LRU's %.4f",
                        report.getDouble("lru_hit_rate")).isGreaterThanOrEqualTo(0.9 * report.getDouble("lru_hit_rate"));
                assertThat(report.getLong("found_then_missing")).as("blocks found, then missing at the load")
                        .isLessThanOrEqualTo(report.getLong("hit_blocks") / 1000);
                assertThat(report.getObject("lookup_errors").unwrapped()).as("lookup errors").isEmpty();
                assertThat(report.getObject("load_errors").unwrapped()).as("load errors").isEmpty();
                assertThat(report.getObject("store_errors").unwrapped().keySet()).as("store errors, by kind and code")
                        .allMatch(kind -> kind.startsWith("no_capacity"));
            } finally {
                node.close();
            }
        }
    }
}
