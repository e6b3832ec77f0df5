package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.host.soak.SoakGauges;
import io.kvtier.hostlib.Declarations;
import io.kvtier.hostlib.Instances;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.hostlib.L2AdapterRegistry;
import io.kvtier.memory.MemoryAdapterProvider;
import io.kvtier.mooncake.MooncakeStoreProvider;
import io.kvtier.mooncake.binding.NativeLibraryLocator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/metrics.md names every metric kvtier registers. A {@code memory} and a {@code mooncake_store}
 * instance (over the connector's test double) are created as the CLI creates them, with serve's,
 * run's and the soak's own metrics beside them; each name in the registry must be on the page: an
 * adapter's after its instance's prefix in the section of its type, the host's in full under "The
 * host's own". A part in angle brackets on the page ({@code <pool>}) stands for one name part.
 * Names an instance registers only later ({@code node.<host_port>.suspect}, once a node is
 * suspect) are not checked.
 */
class MetricsPageTest {
    /** Instance name to the page's section of its type. */
    private static final Map<String, String> INSTANCES = Map.of("mem", "## `memory`", "mc", "## `mooncake_store`");
    private static final String HOST_SECTION = "## The host's own";
    private static final Pattern CODE = Pattern.compile("`([a-z0-9_.<>-]+)`");
    private static final Pattern PLACEHOLDER = Pattern.compile("<[a-z_]+>");

    private static Set<String> registered;

    @BeforeAll
    static void register() throws IOException {
        registered = registeredNames();
    }

    @Test
    void thePageNamesEveryMetricThatTheInstancesAndTheHostRegister() {
        // Not vacuous: each source of names is in the registry.
        assertThat(registered).contains("kvtier.adapter.mem.bytes_used", "kvtier.adapter.mc.segment.size_bytes",
                "kvtier.adapter.mc.lane.shared.queue_depth", "kvtier.serve.mc.healthy", "kvtier.run.mem.recheck",
                "kvtier.soak.mc.load.corrupted");
        assertThat(undocumented(registered, Manual.page("docs/metrics.md").text()))
                .as("metrics registered but not on docs/metrics.md").isEmpty();
    }

    @Test
    void aMetricMissingFromThePageIsCaught() {
        String page = Manual.page("docs/metrics.md").text();
        String broken = page.replaceFirst("(?m)^\\| `segment\\.size_bytes` .*\\n", "")
                .replaceFirst("(?m)^\\| `evictions` .*\\n", "")
                .replace("`kvtier.serve.<instance>.healthy`", "`kvtier.serve.healthy`");
        assertThat(broken).isNotEqualTo(page);
        assertThat(undocumented(registered, broken)).containsExactlyInAnyOrder("kvtier.adapter.mc.segment.size_bytes",
                "kvtier.adapter.mem.evictions", "kvtier.serve.mem.healthy", "kvtier.serve.mc.healthy");
    }

    /** The names of {@code names} that {@code page} does not document. */
    static List<String> undocumented(Set<String> names, String page) {
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            String instance = name.startsWith("kvtier.adapter.") ? name.split("\\.")[2] : null;
            boolean documented = instance == null
                    ? forms(page, HOST_SECTION).stream().anyMatch(form -> form.matcher(name).matches())
                    : forms(page, INSTANCES.get(instance)).stream()
                            .anyMatch(form -> form.matcher(name.substring(Instances.metricPrefix(instance).length() + 1)).matches());
            if (!documented) {
                missing.add(name);
            }
        }
        return missing;
    }

    /** The names in code spans of the section under {@code heading}, each as a pattern. */
    private static List<Pattern> forms(String page, String heading) {
        int start = page.indexOf("\n" + heading + "\n");
        if (start < 0) {
            return List.of();
        }
        int end = page.indexOf("\n## ", start + 1);
        Matcher code = CODE.matcher(page.substring(start, end < 0 ? page.length() : end));
        List<Pattern> forms = new ArrayList<>();
        while (code.find()) {
            forms.add(Pattern.compile(Arrays.stream(PLACEHOLDER.split(code.group(1), -1)).map(Pattern::quote)
                    .collect(Collectors.joining("[^.]+"))));
        }
        return forms;
    }

    /**
     * Every name registered by a memory instance and a mooncake_store instance on the connector's
     * test double, serve's gauges for both, a run's timers and the soak's gauges.
     */
    private static Set<String> registeredNames() throws IOException {
        Path testDouble = Manual.root().resolve("plugin-mooncake/target/native-testdouble/libkvtier_mooncake_testdouble.so");
        assertThat(testDouble).as("the connector's test double, built with plugin-mooncake").isRegularFile();
        MetricRegistry metrics = new MetricRegistry();
        Workload.Options options = new Workload.Options(8, 4096, 4, 2, 1);
        String before = System.getProperty(NativeLibraryLocator.PROPERTY);
        // The double never connects to a master; kvtier only checks that one accepts connections.
        try (ServerSocket master = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             L1Arena arena = L1Arena.allocate(Workload.l1BytesNeeded(options), L1Arena.DEFAULT_ALIGNMENT, false)) {
            System.setProperty(NativeLibraryLocator.PROPERTY, testDouble.toString());
            L2AdapterRegistry registry = L2AdapterRegistry.of(new MemoryAdapterProvider(), new MooncakeStoreProvider());
            try (Instances instances = Instances.create(Declarations.load(registry, List.of(), List.of(
                    "{\"name\":\"mem\",\"type\":\"memory\",\"capacity\":\"1 MiB\"}",
                    "{\"name\":\"mc\",\"type\":\"mooncake_store\",\"local_hostname\":\"127.0.0.1\",\"metadata_server\":\"P2PHANDSHAKE\","
                            + "\"protocol\":\"tcp\",\"master_server_addr\":\"127.0.0.1:" + master.getLocalPort() + "\"}")),
                    arena, metrics)) {
                ServeMetrics.register(metrics, instances.all());
                Instances.Instance mem = instances.select("mem");
                new Workload(arena, options, metrics, new Progress(new PrintWriter(new StringWriter())))
                        .run(mem.name(), "memory", mem.adapter());
                Instances.Instance mc = instances.select("mc");
                SoakGauges.register(metrics, mc.name(), "mooncake_store", mc.adapter());
                // Read before close, which drops the instances' gauges.
                return Set.copyOf(metrics.getNames());
            }
        } finally {
            if (before == null) {
                System.clearProperty(NativeLibraryLocator.PROPERTY);
            } else {
                System.setProperty(NativeLibraryLocator.PROPERTY, before);
            }
        }
    }
}
