package io.kvtier.host;

import io.kvtier.hostlib.ConfigValues;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Renders run reports as text or as JSON. */
final class RunSummary {
    private RunSummary() {}

    static String toJson(List<Workload.RunReport> reports) {
        return ConfigValues.toJson(Map.of("instances", reports.stream().map(RunSummary::toMap).toList(),
                "passed", reports.stream().allMatch(Workload.RunReport::passed)));
    }

    private static Map<String, Object> toMap(Workload.RunReport r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", r.name);
        m.put("type", r.type);
        m.put("chunks", r.options.chunks());
        m.put("chunk_bytes", r.options.chunkSize());
        m.put("bytes", r.bytes());
        m.put("batch", r.options.batch());
        m.put("in_flight", r.options.inFlight());
        m.put("passes", r.passes.stream().map(p -> toMap(r, p)).toList());
        m.put("errors", r.errors());
        m.put("errors_by_kind", r.errorsByKind());
        m.put("passed", r.passed());
        m.put("metrics", r.metrics);
        return m;
    }

    private static Map<String, Object> toMap(Workload.RunReport r, Workload.PassReport p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pass", p.pass);
        m.put("cold", p.cold());
        m.put("copy", Map.of("gb_per_s", round(gbPerSecond(r, p.copyNanos))));
        m.put("store", Map.of("gb_per_s", round(gbPerSecond(r, p.storeNanos)), "stored", p.stored,
                "errors", p.storeErrors, "p50_ms", round(p.store.percentileMillis(50)),
                "p99_ms", round(p.store.percentileMillis(99))));
        m.put("lookup", Map.of("hits", p.hits, "misses", p.misses, "errors", p.lookupErrors,
                "unexpected", p.unexpectedLookups, "p50_ms", round(p.lookup.percentileMillis(50)),
                "p99_ms", round(p.lookup.percentileMillis(99))));
        m.put("load", Map.of("gb_per_s", round(gbPerSecond(r, p.loadNanos)), "verified", p.verified,
                "corrupted", p.corrupted, "not_loaded", p.notLoaded, "p50_ms", round(p.load.percentileMillis(50)),
                "p99_ms", round(p.load.percentileMillis(99))));
        m.put("delete", Map.of("deleted", p.deleted, "errors", p.deleteErrors, "survived", p.survivedDelete,
                "p50_ms", round(p.delete.percentileMillis(50)), "p99_ms", round(p.delete.percentileMillis(99))));
        m.put("errors", p.errors());
        m.put("passed", p.passed());
        return m;
    }

    static String toText(Workload.RunReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%s (%s): %d chunks x %d bytes = %.1f MiB, batches of %d, %d in flight%n", r.name,
                r.type, r.options.chunks(), r.options.chunkSize(), r.bytes() / (1024.0 * 1024.0), r.options.batch(),
                r.options.inFlight()));
        Workload.PassReport cold = r.passes.get(0);
        if (r.passes.size() > 1) {
            sb.append("  pass 1 (cold)").append(System.lineSeparator());
        }
        appendPass(sb, r, cold);
        List<Workload.PassReport> steady = r.passes.subList(1, r.passes.size());
        if (!steady.isEmpty()) {
            sb.append(String.format("  passes 2-%d (steady state): median (min-max)%n", r.passes.size()));
            sb.append("  store   ").append(spread(steady, p -> gbPerSecond(r, p.storeNanos), "GB/s"));
            sb.append("  load    ").append(spread(steady, p -> gbPerSecond(r, p.loadNanos), "GB/s"));
            sb.append("  lookup  p50 ").append(spread(steady, p -> p.lookup.percentileMillis(50), "ms"));
            sb.append("  lookup  p99 ").append(spread(steady, p -> p.lookup.percentileMillis(99), "ms"));
            sb.append("  copy    ").append(spread(steady, p -> gbPerSecond(r, p.copyNanos), "GB/s"));
            for (Workload.PassReport p : steady) {
                if (!p.passed()) {
                    sb.append("  pass ").append(p.pass).append(':').append(System.lineSeparator());
                    appendPass(sb, r, p);
                }
            }
        }
        if (!r.metrics.isEmpty()) {
            sb.append("  metrics ");
            r.metrics.forEach((name, value) -> sb.append(' ').append(name).append('=').append(value));
            sb.append(System.lineSeparator());
        }
        Map<String, Long> causes = r.errorsByKind();
        sb.append(String.format("  %s: %d errors%s%n", r.passed() ? "PASSED" : "FAILED", r.errors(),
                causes.isEmpty() ? "" : " (" + causes.toString().replaceAll("[{}]", "") + ")"));
        return sb.toString();
    }

    private static void appendPass(StringBuilder sb, Workload.RunReport r, Workload.PassReport p) {
        sb.append(String.format("  store   %7.2f GB/s  stored %d  errors %d  p50 %.3f ms  p99 %.3f ms%n",
                gbPerSecond(r, p.storeNanos), p.stored, p.storeErrors, p.store.percentileMillis(50),
                p.store.percentileMillis(99)));
        sb.append(String.format("  lookup  hits %d  misses %d  errors %d  unexpected %d  p50 %.3f ms  p99 %.3f ms%n",
                p.hits, p.misses, p.lookupErrors, p.unexpectedLookups, p.lookup.percentileMillis(50),
                p.lookup.percentileMillis(99)));
        sb.append(String.format("  load    %7.2f GB/s  verified %d  corrupted %d  not loaded %d  p50 %.3f ms  p99 %.3f ms%n",
                gbPerSecond(r, p.loadNanos), p.verified, p.corrupted, p.notLoaded, p.load.percentileMillis(50),
                p.load.percentileMillis(99)));
        sb.append(String.format("  delete  deleted %d  errors %d  still found after delete %d  p50 %.3f ms  p99 %.3f ms%n",
                p.deleted, p.deleteErrors, p.survivedDelete, p.delete.percentileMillis(50),
                p.delete.percentileMillis(99)));
        sb.append(String.format("  copy    %7.2f GB/s  (a plain copy of the same bytes, L1 to L1)%n",
                gbPerSecond(r, p.copyNanos)));
    }

    private static String spread(List<Workload.PassReport> passes, ToDoubleFunction<Workload.PassReport> figure,
                                 String unit) {
        double[] values = passes.stream().mapToDouble(figure).sorted().toArray();
        double median = values.length % 2 == 1 ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
        return String.format("%.3f %s (%.3f-%.3f)%n", median, unit, values[0], values[values.length - 1]);
    }

    private static double gbPerSecond(Workload.RunReport r, long nanos) {
        return nanos == 0 ? 0 : r.bytes() / (double) nanos;
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
