package io.kvtier.host.soak;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.host.DeclarationOptions;
import io.kvtier.host.L1Options;
import io.kvtier.host.Main;
import io.kvtier.hostlib.ConfigValues;
import io.kvtier.hostlib.ConfiguredAdapter;
import io.kvtier.hostlib.Instances;
import io.kvtier.hostlib.L1Arena;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "soak", description = {
        "Run a long mixed workload (store, lookup, load, delete) on every instance and check every answer: "
                + "each load byte for byte against the version last stored, each miss against what was stored.",
        "Exits 0 only if nothing was corrupted and nothing was lost outside a fault window."})
public final class SoakCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    DeclarationOptions declarations;

    @Option(names = "--duration", paramLabel = "TIME", description = "how long to run, e.g. 30s, 10m, PT1H (default ${DEFAULT-VALUE})")
    String duration = "1m";

    @Option(names = "--threads", paramLabel = "N", description = "worker threads, each with one batch in flight (default ${DEFAULT-VALUE})")
    int threads = 4;

    @Option(names = "--mix", paramLabel = "WEIGHTS", description = "operation weights (default ${DEFAULT-VALUE})")
    String mix = "store=40,lookup=20,load=35,delete=5";

    @Option(names = "--chunk-size", paramLabel = "SIZE", description = "bytes per object (default ${DEFAULT-VALUE})")
    String chunkSize = "256 KiB";

    @Option(names = "--keys", paramLabel = "N", description = "key space per instance (default ${DEFAULT-VALUE})")
    int keys = 1024;

    @Option(names = "--rate", paramLabel = "OPS", description = "most operations per second, all threads together (a store with its deletes first is one); 0 = unlimited (default ${DEFAULT-VALUE})")
    int rate = 0;

    @Option(names = "--batch", paramLabel = "K", description = "keys per batch (default ${DEFAULT-VALUE})")
    int batch = 8;

    @Option(names = "--progress-interval", paramLabel = "TIME", description = "time between progress lines on stderr (default ${DEFAULT-VALUE})")
    String progressInterval = "5s";

    @Option(names = "--fault-settle", paramLabel = "TIME", description = "a fault window closes after this long without errors (default ${DEFAULT-VALUE})")
    String faultSettle = "10s";

    @Option(names = "--marks-from-stdin", description = "read 'fault' and 'recovered' lines on stdin, marking a fault window that a test harness induces, "
            + "'seal' before a fault that must lose nothing (stored keys are set aside and checked at the end), and 'stop' to end the soak early")
    boolean marksFromStdin;

    @Option(names = "--metrics-port", paramLabel = "PORT", description = "serve metrics in Prometheus text format on 127.0.0.1:PORT (0 = any free port)")
    Integer metricsPort;

    @Option(names = "--evicting", description = "the instances evict on their own (Mooncake, memory with a capacity): a key stored OK "
            + "that is then reported missing counts as evicted, not lost; wrong bytes still fail the soak")
    boolean evicting;

    @Option(names = "--seed", paramLabel = "N", description = "seed of the operation and key choices (default: random)")
    Long seed;

    @Mixin
    L1Options l1;

    @Option(names = "--json", description = "print the report as one JSON line")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Soak.Options options = options();
        List<ConfiguredAdapter<?>> configured = declarations.configure(Main.registry(err));
        MetricRegistry metrics = new MetricRegistry();
        SoakReport report;
        try (L1Arena arena = l1.allocate(Soak.l1BytesNeeded(options));
             Instances instances = Instances.create(configured, arena, metrics)) {
            List<Target> targets = new ArrayList<>();
            for (Instances.Instance instance : instances.all()) {
                targets.add(new Target(instance.name(), instance.declared().type(), targets.size(), instance.adapter(),
                        options.keys(), options.faultSettleNanos()));
                warnIfTheKeysDoNotFit(err, instance, options);
            }
            Soak soak = new Soak(options, targets, arena, metrics, err, new SecureRandom().nextLong());
            if (marksFromStdin) {
                StdinMarks.readInBackground(new InputStreamReader(System.in, StandardCharsets.UTF_8), soak::mark, soak::seal, soak::stop,
                        err);
            }
            report = runUntilDoneOrInterrupted(soak, out);
        }
        return report.exitCode();
    }

    /**
     * Prints the report, also when the soak is interrupted (Ctrl-C, SIGTERM): a shutdown hook ends
     * it early and holds the JVM until the report is out.
     */
    private SoakReport runUntilDoneOrInterrupted(Soak soak, PrintWriter out) throws InterruptedException {
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            soak.stop();
            try {
                reported.await(2, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "kvtier-soak-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            SoakReport report = soak.run();
            out.print(json ? report.toJson() + System.lineSeparator() : report.toText());
            out.flush(); // print() does not flush, and main() exits right after
            return report;
        } finally {
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it returns now that the report is out
            }
        }
    }

    Soak.Options options() {
        long size = ConfigValues.bytes(chunkSize, "--chunk-size");
        if (size < ObjectContent.HEADER_BYTES || size > Integer.MAX_VALUE - L1Arena.DEFAULT_ALIGNMENT) {
            throw new IllegalArgumentException("--chunk-size must be between " + ObjectContent.HEADER_BYTES
                    + " bytes and 2 GiB, got '" + chunkSize + "'");
        }
        positive("--threads", threads);
        positive("--keys", keys);
        positive("--batch", batch);
        if (rate < 0) {
            throw new IllegalArgumentException("--rate must be 0 (unlimited) or positive, got " + rate);
        }
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65535)) {
            throw new IllegalArgumentException("--metrics-port must be a port from 0 to 65535, got " + metricsPort);
        }
        if (keys < (long) threads * batch) {
            throw new IllegalArgumentException("--keys " + keys + " must be at least --threads x --batch ("
                    + threads + " x " + batch + "), so that every batch finds keys no other thread holds");
        }
        return new Soak.Options(Durations.parse(duration, "--duration").toNanos(), threads, Mix.parse(mix), (int) size,
                keys, rate, batch, Durations.parse(progressInterval, "--progress-interval").toNanos(),
                Durations.parse(faultSettle, "--fault-settle").toNanos(),
                seed != null ? seed : new SecureRandom().nextLong(), metricsPort, evicting);
    }

    private static void positive(String option, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(option + " must be positive, got " + value);
        }
    }

    /** An instance that evicts would make its evictions look like losses, unless the soak is told it evicts. */
    private static void warnIfTheKeysDoNotFit(PrintWriter err, Instances.Instance instance, Soak.Options options) {
        if (options.evicting()) {
            return;
        }
        instance.capacityWarning((long) options.keys() * options.chunkSize(), "--keys x --chunk-size",
                "what it evicts will be reported as lost; with --evicting, as evicted").ifPresent(err::println);
    }
}
