package io.kvtier.host.replay;

import static io.kvtier.host.HostCli.kvtier;
import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kvtier.host.FailurePacer;
import io.kvtier.host.HostCli.Result;
import io.kvtier.host.soak.CorruptingAdapterDouble;
import io.kvtier.host.soak.InMemoryAdapterDouble;
import io.kvtier.hostlib.Declarations;
import io.kvtier.hostlib.L2AdapterRegistry;
import io.kvtier.spi.L2Adapter;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The replay of the test trace (500 requests, 14,162 blocks of 4 KiB) through memory and through test doubles. */
class ReplayCommandTest {
    private static final String TRACE = ReplayTraces.CONVERSATION_500.toString();
    /** 2,000 blocks of 4 KiB: the exact LRU of that many hits 575 blocks, an unbounded cache 2,283. */
    private static final String MEMORY_2000_BLOCKS = "{\"type\":\"memory\",\"capacity\":\"8000 KiB\"}";

    @TempDir
    Path out;

    private Result replay(String... options) {
        List<String> args = new ArrayList<>(List.of("replay", "--trace", TRACE, "--block-size", "4 KiB", "--json",
                "--out", out.toString()));
        args.addAll(List.of(options));
        return kvtier(args.toArray(String[]::new));
    }

    private static Config instance(Result r) {
        assertThat(r.out().lines()).as("one JSON object on stdout").hasSize(1);
        List<? extends Config> instances = ConfigFactory.parseString(r.out()).getConfigList("instances");
        assertThat(instances).hasSize(1);
        return instances.get(0);
    }

    @Test
    void memoryThatMustEvictHitsAboutAsOftenAsAnExactLruOfItsCapacityAndCorruptsNothing() throws Exception {
        Result r = replay("--concurrency", "4", "--l2-adapter", MEMORY_2000_BLOCKS);

        assertThat(r.exit()).as(r.err()).isZero();
        Config memory = instance(r);
        assertThat(memory.getLong("capacity_blocks")).isEqualTo(2_000);
        assertThat(memory.getLong("blocks")).isEqualTo(14_162);
        assertThat(memory.getInt("requests")).isEqualTo(500);
        assertThat(memory.getDouble("lru_hit_rate")).isEqualTo(0.0406);
        assertThat(memory.getDouble("max_hit_rate")).isEqualTo(0.1612);
        assertThat(memory.getDouble("hit_rate")).isGreaterThanOrEqualTo(0.9 * memory.getDouble("lru_hit_rate"))
                .isLessThanOrEqualTo(memory.getDouble("max_hit_rate"));
        assertThat(memory.getLong("corrupted")).isZero();
        assertThat(memory.getLong("found_then_missing")).isZero();
        assertThat(memory.getConfig("store_errors").root()).isEmpty();
        assertThat(memory.getLong("bytes_stored")).as("every block was stored at least once").isGreaterThanOrEqualTo(11_879L * 4096);
        assertThat(memory.root().keySet()).contains("name", "type", "mode", "concurrency", "block_bytes", "hit_blocks",
                "lookup_errors", "load_errors", "delete_errors", "deleted_before", "bytes_loaded", "seconds",
                "requests_per_s_asked", "requests_per_s_achieved", "passed");
        assertThat(memory.getConfig("prefix_fetch_ms").root().keySet()).containsExactlyInAnyOrder("p50", "p99", "p999");
        for (String op : List.of("lookup_ms", "load_ms", "store_ms")) {
            assertThat(memory.getConfig(op).root().keySet()).containsExactlyInAnyOrder("p50", "p99");
        }
        // The instance's own timers, here the memory tier's one per operation.
        assertThat(memory.getConfig("adapter_timers_ms").root().keySet())
                .containsExactlyInAnyOrder("delete", "lookup", "load", "store");
        assertThat(memory.getDouble("adapter_timers_ms.lookup.p99"))
                .isGreaterThanOrEqualTo(memory.getDouble("adapter_timers_ms.lookup.p50"));
        assertThat(memory.getString("mode")).isEqualTo("closed");
        assertThat(memory.hasPath("schedule_lag_ms")).as("a closed loop has no schedule").isFalse();

        Config written = ConfigFactory.parseFile(out.resolve("replay.json").toFile());
        assertThat(written.getConfigList("instances").get(0).getLong("hit_blocks")).isEqualTo(memory.getLong("hit_blocks"));
        BufferedImage chart = ImageIO.read(out.resolve("replay-memory-0.png").toFile());
        assertThat(chart.getWidth()).isEqualTo(960);
    }

    @Test
    void oneRequestAtATimeMemoryHitsExactlyAsTheLruOracle() {
        Result r = replay("--concurrency", "1", "--l2-adapter", MEMORY_2000_BLOCKS);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(instance(r).getLong("hit_blocks")).isEqualTo(575);
    }

    @Test
    void anUnboundedCapacityHitsExactlyAsTheUnboundedOracle() {
        Result r = replay("--concurrency", "1", "--l2-adapter", "{\"type\":\"memory\",\"capacity\":\"1 GiB\"}");

        assertThat(r.exit()).as(r.err()).isZero();
        Config memory = instance(r);
        assertThat(memory.getLong("hit_blocks")).isEqualTo(2_283);
        assertThat(memory.getDouble("hit_rate")).isEqualTo(memory.getDouble("max_hit_rate"))
                .isEqualTo(memory.getDouble("lru_hit_rate"));
    }

    @Test
    void capacityBlocksSetsTheOraclesCapacity() {
        Result r = replay("--requests", "100", "--capacity-blocks", "500", "--l2-adapter", MEMORY_2000_BLOCKS);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(instance(r).getLong("capacity_blocks")).isEqualTo(500);
        assertThat(instance(r).getInt("requests")).isEqualTo(100);
    }

    @Test
    void anInstanceWithoutACapacityGetsNoExactLruButSaysHowToGiveOne() {
        // Capacity 0, as a mooncake_store client reports: the cluster's capacity is not its own.
        StringWriter json = new StringWriter();
        assertThat(replayThrough(new InMemoryAdapterDouble(), json, "--json")).isZero();
        Config report = ConfigFactory.parseString(json.toString()).getConfigList("instances").get(0);
        assertThat(report.getLong("capacity_blocks")).isZero();
        assertThat(report.getIsNull("lru_hit_rate")).isTrue();
        assertThat(report.getDouble("max_hit_rate")).isPositive();

        StringWriter text = new StringWriter();
        assertThat(replayThrough(new InMemoryAdapterDouble(), text, "--speed", "max")).isZero();
        assertThat(text.toString()).containsPattern("hit rate +[0-9.]+%  \\(unbounded: [0-9.]+%; no exact LRU: the "
                + "instance reports no capacity, so the only oracle is unbounded; give --capacity-blocks N, the "
                + "cluster's segment bytes / 4 KiB\\)").doesNotContain("exact LRU of");
    }

    @Test
    void anOpenLoopReportsWhatItWasAskedAndHowFarBehindScheduleItFell() {
        Result r = replay("--requests", "50", "--speed", "1000000", "--l2-adapter", MEMORY_2000_BLOCKS);

        assertThat(r.exit()).as(r.err()).isZero();
        Config memory = instance(r);
        assertThat(memory.getString("mode")).isEqualTo("open");
        assertThat(memory.getDouble("speed")).isEqualTo(1_000_000);
        assertThat(memory.getDouble("requests_per_s_asked")).isPositive();
        assertThat(memory.getConfig("schedule_lag_ms").root().keySet()).containsExactlyInAnyOrder("p99", "max");
    }

    @Test
    void theTextReportSaysTheHitRateBesideTheOraclesAndWhereTheFilesAre() {
        Result r = kvtier("replay", "--trace", TRACE, "--block-size", "4 KiB", "--requests", "20", "--out",
                out.toString(), "--l2-adapter", MEMORY_2000_BLOCKS);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("memory-0 (memory): 20 requests", "exact LRU of 2000 blocks", "corrupted 0",
                "prefix fetch  p50", "timer lookup ", "PASSED", "wrote " + out.resolve("replay.json"));
    }

    @Test
    void aBlockLoadedWithOtherBytesIsCorruptedAndFailsTheReplay() {
        CorruptingAdapterDouble corrupting = new CorruptingAdapterDouble(7);
        StringWriter stdout = new StringWriter();

        int exit = replayThrough(corrupting, stdout);

        assertThat(exit).isEqualTo(1);
        Config report = ConfigFactory.parseString(stdout.toString()).getConfigList("instances").get(0);
        assertThat(corrupting.flipped.get()).isPositive();
        assertThat(report.getLong("corrupted")).isEqualTo(corrupting.flipped.get());
        assertThat(report.getDouble("hit_rate")).isLessThan(report.getDouble("max_hit_rate"));
        assertThat(report.getBoolean("passed")).isFalse();
    }

    @Test
    void aKeyFoundThenMissingAtTheLoadIsCountedApartAndIsNoFailure() {
        ForgetsAfterLookupDouble forgetful = new ForgetsAfterLookupDouble(5);
        StringWriter stdout = new StringWriter();

        int exit = replayThrough(forgetful, stdout);

        assertThat(exit).isZero();
        Config report = ConfigFactory.parseString(stdout.toString()).getConfigList("instances").get(0);
        assertThat(forgetful.forgotten.get()).isPositive();
        assertThat(report.getLong("found_then_missing")).isEqualTo(forgetful.forgotten.get());
        assertThat(report.getLong("corrupted")).isZero();
        assertThat(report.getDouble("hit_rate")).isLessThan(report.getDouble("max_hit_rate"));
    }

    @Test
    void whileEveryKeyFailsEachBatchWaitsOutAPauseAndTheReplayCountsTheErrors() {
        MasterGoneDouble gone = new MasterGoneDouble();
        StringWriter stdout = new StringWriter();
        long start = System.nanoTime();

        int exit = replayThrough(gone, stdout, "--json", "--requests", "5");
        long elapsed = System.nanoTime() - start;

        assertThat(exit).isEqualTo(1);
        Config report = ConfigFactory.parseString(stdout.toString()).getConfigList("instances").get(0);
        assertThat(report.getLong("hit_blocks")).isZero();
        assertThat(report.getConfig("lookup_errors").root().unwrapped()).containsOnlyKeys("transient -900");
        // The emptying delete, then each request's lookup and store, all failing.
        assertThat(gone.batches.get()).isEqualTo(1 + 5 * 2);
        assertThat(elapsed).as("each batch after the first waited out a pause")
                .isGreaterThanOrEqualTo((gone.batches.get() - 1) * FailurePacer.PAUSE_NANOS);
    }

    /** The replay command's own path, one request at a time, with {@code adapter} as its one instance. */
    private int replayThrough(L2Adapter adapter, StringWriter stdout) {
        return replayThrough(adapter, stdout, "--json");
    }

    private int replayThrough(L2Adapter adapter, StringWriter stdout, String... options) {
        ReplayCommand command = new ReplayCommand();
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(stdout, true));
        cli.setErr(new PrintWriter(new StringWriter(), true));
        List<String> args = new ArrayList<>(List.of("--trace", TRACE, "--block-size", "4 KiB", "--concurrency", "1",
                "--out", out.toString()));
        args.addAll(List.of(options));
        cli.parseArgs(args.toArray(String[]::new));
        L2AdapterRegistry registry = L2AdapterRegistry.of(new DoubleProvider("double", adapter));
        return command.replay(Declarations.load(registry, List.of(), List.of("{\"type\":\"double\"}")));
    }
}
