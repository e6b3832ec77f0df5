package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import io.prometheus.client.Collector;
import io.prometheus.client.dropwizard.DropwizardExports;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prometheus's Dropwizard export with a HELP text that names the Dropwizard metric and nothing
 * else: the export's own names the metric's class, which for a gauge is a lambda's
 * ({@code ServeMetrics$$Lambda$59/0x00007fa63c08dbf0}), different in every JVM.
 */
final class DropwizardCollector extends Collector {
    private static final Pattern EXPORT_HELP = Pattern.compile("Generated from Dropwizard metric import \\(metric=(.*), type=[^)]*\\)");
    private final DropwizardExports exports;

    DropwizardCollector(MetricRegistry metrics) {
        this.exports = new DropwizardExports(metrics);
    }

    @Override
    public List<MetricFamilySamples> collect() {
        return exports.collect().stream()
                .map(family -> new MetricFamilySamples(family.name, family.unit, family.type, help(family.help), family.samples))
                .toList();
    }

    static String help(String exportHelp) {
        Matcher m = EXPORT_HELP.matcher(exportHelp);
        return m.matches() ? "Dropwizard metric " + m.group(1) : exportHelp;
    }
}
