package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.ConfiguredAdapter;
import io.kvtier.hostlib.Instances;
import io.kvtier.hostlib.L1Arena;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sun.misc.Signal;
import sun.misc.SignalHandler;

@Command(name = "serve", description = {
        "Create the declared instances and hold them until stopped.",
        "Prints 'serving NAME[, NAME...]' on stdout once every instance is ready, then",
        "'http HOST:PORT': there it serves /metrics (Prometheus text), /health/live",
        "and /health/ready (JSON; 200 when every instance is healthy, else 503).",
        "SIGTERM or SIGINT (Ctrl-C) stops the HTTP server, closes the instances and",
        "exits 0. With conf/mooncake-node.conf this is a Mooncake storage node: its",
        "segment holds the objects other clients of the cluster store, for as long",
        "as it runs."})
final class ServeCommand implements Callable<Integer> {
    /** Enough for any adapter's L1 checks; a serving instance moves no data through its own L1. */
    private static final long L1_BYTES = L1Arena.DEFAULT_ALIGNMENT;
    private static final List<String> STOP_SIGNALS = List.of("TERM", "INT");

    @Spec
    CommandSpec spec;

    @Mixin
    DeclarationOptions declarations;

    // Loopback and any free port: on by default without exposing anything, and several nodes on
    // one host do not collide.
    @Option(names = "--http", paramLabel = "HOST:PORT", description = "where to serve metrics and health; "
            + "port 0 = any free port; 'off' for nowhere (default ${DEFAULT-VALUE})")
    String http = "127.0.0.1:0";

    @Override
    public Integer call() throws InterruptedException {
        Optional<InetSocketAddress> httpAddress = HttpAddress.parse(http, "--http");
        List<ConfiguredAdapter<?>> configured = declarations.configure(Main.registry(spec.commandLine().getErr()));
        MetricRegistry metrics = new MetricRegistry();
        // Fully allocated, so that an RDMA instance may register it too.
        try (L1Arena arena = L1Arena.allocate(L1_BYTES, L1Arena.DEFAULT_ALIGNMENT, true);
             Instances instances = Instances.create(configured, arena, metrics)) {
            ServeMetrics.register(metrics, instances.all());
            CountDownLatch stop = new CountDownLatch(1);
            // A signal handler instead of a shutdown hook: after a hook the JVM exits 143 or 130, and a
            // stopped node has done what it was asked.
            List<SignalHandler> previous = STOP_SIGNALS.stream()
                    .map(name -> Signal.handle(new Signal(name), signal -> stop.countDown())).toList();
            // Opened inside the instances, so that it closes first: a probe sees the node go before its instances do.
            try (PrometheusEndpoint endpoint = httpAddress.map(address -> PrometheusEndpoint.start(metrics, address,
                    "--http " + http, HealthEndpoint.handlers(instances::all))).orElse(null)) {
                PrintWriter out = spec.commandLine().getOut();
                out.println("serving " + String.join(", ", instances.all().stream().map(Instances.Instance::name).toList()));
                if (endpoint != null) {
                    out.println("http " + endpoint.address());
                }
                out.flush();
                stop.await();
            } finally {
                for (int i = 0; i < STOP_SIGNALS.size(); i++) {
                    Signal.handle(new Signal(STOP_SIGNALS.get(i)), previous.get(i));
                }
            }
        }
        return Main.OK;
    }
}
