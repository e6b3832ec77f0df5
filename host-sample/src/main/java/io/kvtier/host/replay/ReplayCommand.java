package io.kvtier.host.replay;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.host.DeclarationOptions;
import io.kvtier.host.L1Options;
import io.kvtier.host.Main;
import io.kvtier.host.MetricsSnapshot;
import io.kvtier.host.soak.ObjectContent;
import io.kvtier.hostlib.ConfigValues;
import io.kvtier.hostlib.ConfiguredAdapter;
import io.kvtier.hostlib.Instances;
import io.kvtier.hostlib.L1Arena;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "replay", description = {
        "Replay a request trace through every instance, as an LMCache-style host serves it.",
        "Per request: look up its blocks, load the longest run of leading blocks found and verify every byte, then "
                + "store the blocks after that run. The prefix hit rate is set beside an exact LRU cache of the "
                + "instance's capacity and an unbounded cache. Each instance starts empty: the trace's blocks are "
                + "deleted from it first. Writes replay.json and a chart per instance (PNG) into --out.",
        "Exits 0 when no block was corrupted and no error occurred but a full store's."})
public final class ReplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    DeclarationOptions declarations;

    @Mixin
    L1Options l1;

    @Option(names = "--trace", paramLabel = "FILE", required = true, description = "JSON lines, one request each, as in Mooncake's FAST'25 traces: "
            + "{\"timestamp\": ms, \"hash_ids\": [ids]}, an id per 512-token block, equal ids equal prefixes; "
            + "gzipped or not")
    Path trace;

    @Option(names = "--block-size", paramLabel = "SIZE", description = "bytes per block (default ${DEFAULT-VALUE}). A real 512-token block "
            + "holds tens to hundreds of MiB; 256 KiB keeps the whole conversation trace "
            + "(288,500 blocks, 70 GiB moved) under a minute on 2 cores with memory, L1 for 4 of its longest "
            + "requests (247 blocks) to 247 MiB, and lets the memory default (1 GiB) hold 4,096 blocks, where LRU "
            + "still misses much that unbounded hits")
    String blockSize = "256 KiB";

    @Option(names = "--requests", paramLabel = "N", description = "replay the first N requests (default: all)")
    Integer requests;

    @Option(names = "--speed", paramLabel = "X", description = "'max' (default): a closed loop, a request starting as soon as one "
            + "completes; or X times real time: an open loop, each request starting at its trace time / X, or as "
            + "soon after as a place is free, with how late it started reported")
    String speed = "max";

    @Option(names = "--concurrency", paramLabel = "N", description = "requests in flight at most (default ${DEFAULT-VALUE}); "
            + "at 1, an adapter that evicts exactly the least recently used block hits exactly as the LRU oracle")
    int concurrency = 4;

    @Option(names = "--capacity-blocks", paramLabel = "N", description = "the capacity of the LRU oracle, in blocks (default: the "
            + "instance's capacity / --block-size; unbounded when the instance does not say)")
    Long capacityBlocks;

    @Option(names = "--json", description = "print the report as one JSON object")
    boolean json;

    @Option(names = "--out", paramLabel = "DIR", description = "where replay.json and the charts go (default ${DEFAULT-VALUE})")
    Path out = Path.of(System.getProperty("java.io.tmpdir"), "kvtier-replay");

    @Override
    public Integer call() {
        return replay(declarations.configure(Main.registry(spec.commandLine().getErr())));
    }

    /** Replays the trace through the instances of {@code configured}; @return the exit code. */
    int replay(List<ConfiguredAdapter<?>> configured) {
        Replayer.Settings settings = settings();
        List<Trace.Request> trace = Trace.read(this.trace, requests == null ? Integer.MAX_VALUE : requests);
        Map<Long, int[]> lruHits = new HashMap<>();
        int[] maxHits = LruOracle.hits(trace, 0);
        List<ReplayReport> reports = new ArrayList<>();
        MetricRegistry metrics = new MetricRegistry();
        try (L1Arena arena = l1.allocate(Replayer.l1BytesNeeded(trace, settings));
             Instances instances = Instances.create(configured, arena, metrics)) {
            instances.all().forEach(instance -> requireRoom(instance, settings.blockBytes()));
            Replayer replayer = new Replayer(trace, settings, arena);
            for (Instances.Instance instance : instances.all()) {
                long capacity = capacityBlocks != null ? capacityBlocks
                        : instance.adapter().usage().capacityBytes() / settings.blockBytes();
                ReplayReport report = replayer.replay(instance.name(), instance.declared().type(), instance.adapter(),
                        capacity, lruHits.computeIfAbsent(capacity, c -> LruOracle.hits(trace, c)), maxHits);
                report.adapterTimers(MetricsSnapshot.timers(metrics, Instances.metricPrefix(instance.name())));
                reports.add(report);
            }
        }
        Map<Path, ReplayReport> charts = new LinkedHashMap<>();
        reports.forEach(r -> charts.put(out.resolve("replay-" + r.name.replaceAll("[^A-Za-z0-9._-]", "_") + ".png"), r));
        Path jsonFile = out.resolve("replay.json");
        List<Path> files = new ArrayList<>(List.of(jsonFile));
        files.addAll(charts.keySet());
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("trace", this.trace.toString());
        summary.put("requests", trace.size());
        summary.put("instances", reports.stream().map(ReplayReport::toMap).toList());
        summary.put("passed", reports.stream().allMatch(ReplayReport::passed));
        summary.put("files", files.stream().map(Path::toString).toList());
        write(jsonFile, ConfigValues.toJson(summary), charts);
        PrintWriter stdout = spec.commandLine().getOut();
        if (json) {
            stdout.println(ConfigValues.toJson(summary));
        } else {
            reports.forEach(r -> stdout.print(r.toText()));
            stdout.println("wrote " + String.join(", ", files.stream().map(Path::toString).toList()));
        }
        return reports.stream().allMatch(ReplayReport::passed) ? Main.OK : Main.FAILED;
    }

    private Replayer.Settings settings() {
        if (requests != null && requests <= 0) {
            throw new IllegalArgumentException("--requests must be positive, got " + requests);
        }
        if (concurrency <= 0) {
            throw new IllegalArgumentException("--concurrency must be positive, got " + concurrency);
        }
        if (capacityBlocks != null && capacityBlocks <= 0) {
            throw new IllegalArgumentException("--capacity-blocks must be positive, got " + capacityBlocks);
        }
        long bytes = ConfigValues.bytes(blockSize, "--block-size");
        if (bytes < ObjectContent.HEADER_BYTES || bytes > Integer.MAX_VALUE - L1Arena.DEFAULT_ALIGNMENT) {
            throw new IllegalArgumentException("--block-size must be from " + ObjectContent.HEADER_BYTES
                    + " bytes (a block names its id in its first bytes) to 2 GiB, got " + blockSize);
        }
        return new Replayer.Settings((int) bytes, speed(), concurrency);
    }

    /** 0 for a closed loop. */
    private double speed() {
        if (speed.equals("max")) {
            return 0;
        }
        double x;
        try {
            x = Double.parseDouble(speed);
        } catch (NumberFormatException e) {
            x = Double.NaN;
        }
        if (!(x > 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException("--speed must be 'max' or a positive number (times real time), got '"
                    + speed + "'");
        }
        return x;
    }

    private static void requireRoom(Instances.Instance instance, int blockBytes) {
        long capacity = instance.adapter().usage().capacityBytes();
        long l1Block = instance.adapter().l1BlockSize();
        if (capacity > 0 && blockBytes > capacity || l1Block > 0 && blockBytes > l1Block) {
            throw new IllegalArgumentException("--block-size " + ConfigValues.readableBytes(blockBytes)
                    + " is larger than instance '" + instance.name() + "' can hold: "
                    + (capacity > 0 && blockBytes > capacity ? "its capacity is " + ConfigValues.readableBytes(capacity)
                    : "its L1 registration blocks are " + ConfigValues.readableBytes(l1Block)));
        }
    }

    private void write(Path jsonFile, String json, Map<Path, ReplayReport> charts) {
        try {
            Files.createDirectories(out);
            Files.writeString(jsonFile, json + System.lineSeparator());
            for (Map.Entry<Path, ReplayReport> chart : charts.entrySet()) {
                ReplayChart.write(chart.getValue(), chart.getKey());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("--out " + out + ": " + e.getMessage(), e);
        }
    }
}
