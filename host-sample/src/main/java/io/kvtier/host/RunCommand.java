package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.jmx.JmxReporter;
import io.kvtier.hostlib.ConfigValues;
import io.kvtier.hostlib.ConfiguredAdapter;
import io.kvtier.hostlib.Instances;
import io.kvtier.hostlib.L1Arena;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "run", description = {
        "Run the workload on every instance and verify every chunk.",
        "It stores chunks from L1, looks them up with keys known to be missing, loads them into fresh L1",
        "slices and verifies them byte for byte, deletes them, and looks them up again.",
        "Exits 0 only if every chunk verified and every missing key was reported missing."})
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    DeclarationOptions declarations;

    @Option(names = "--chunks", paramLabel = "N", description = "chunks per instance (default ${DEFAULT-VALUE})")
    int chunks = 256;

    @Option(names = "--chunk-size", paramLabel = "SIZE", description = "bytes per chunk (default ${DEFAULT-VALUE})")
    String chunkSize = "1 MiB";

    @Option(names = "--batch", paramLabel = "K", description = "keys per batch (default ${DEFAULT-VALUE})")
    int batch = 16;

    @Option(names = "--in-flight", paramLabel = "W", description = "batches in flight at once (default ${DEFAULT-VALUE})")
    int inFlight = 4;

    @Option(names = "--passes", paramLabel = "N", description = {
            "passes of the whole workload per instance, each with keys of its own (default ${DEFAULT-VALUE});",
            "the first is reported apart as the cold pass, the others as the steady state"})
    int passes = 1;

    @Option(names = "--l1-size", paramLabel = "SIZE", description = "L1 arena size (default: what the workload needs)")
    String l1Size;

    @Mixin
    L1Options l1;

    @Option(names = "--json", description = "print the summary as JSON")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Workload.Options options = options();
        long needed = Workload.l1BytesNeeded(options);
        long l1Bytes = l1Size == null ? needed : ConfigValues.bytes(l1Size, "--l1-size");
        if (l1Bytes < needed) {
            throw new IllegalArgumentException("--l1-size " + l1Size + " is too small: the workload needs "
                    + ConfigValues.readableBytes(needed) + " for --chunks " + chunks + " --chunk-size " + chunkSize);
        }
        List<ConfiguredAdapter<?>> configured = declarations.configure(Main.registry(err));
        MetricRegistry metrics = new MetricRegistry();
        List<Workload.RunReport> reports = new ArrayList<>();
        long start = System.nanoTime();
        try (L1Arena arena = l1.allocate(l1Bytes);
             Instances instances = Instances.create(configured, arena, metrics);
             JmxReporter jmx = JmxReporter.forRegistry(metrics).inDomain("kvtier").build()) {
            jmx.start();
            Workload workload = new Workload(arena, options, metrics, new Progress(err));
            for (Instances.Instance instance : instances.all()) {
                instance.capacityWarning((long) options.chunks() * options.chunkSize(), "--chunks x --chunk-size",
                        "it must evict chunks before they are loaded, so the run fails").ifPresent(err::println);
                arena.reset();
                Workload.RunReport report = workload.run(instance.name(), instance.declared().type(), instance.adapter());
                // Taken before close(), which removes an instance's gauges.
                report.metrics = MetricsSnapshot.of(metrics, Instances.metricPrefix(instance.name()));
                reports.add(report);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (json) {
            out.println(RunSummary.toJson(reports));
        } else {
            reports.forEach(r -> out.print(RunSummary.toText(r)));
            out.printf("%d instance(s) in %.2f s%n", reports.size(), seconds);
        }
        return reports.stream().allMatch(Workload.RunReport::passed) ? Main.OK : Main.FAILED;
    }

    private Workload.Options options() {
        long size = ConfigValues.bytes(chunkSize, "--chunk-size");
        if (chunks <= 0 || batch <= 0 || inFlight <= 0 || passes <= 0 || size <= 0
                || size > Integer.MAX_VALUE - L1Arena.DEFAULT_ALIGNMENT) {
            throw new IllegalArgumentException("--chunks, --batch, --in-flight, --passes and --chunk-size must be "
                    + "positive (chunks " + chunks + ", batch " + batch + ", in flight " + inFlight + ", passes "
                    + passes + ", chunk size " + chunkSize + "), and a chunk at most 2 GiB");
        }
        return new Workload.Options(chunks, (int) size, batch, inFlight, passes);
    }
}
