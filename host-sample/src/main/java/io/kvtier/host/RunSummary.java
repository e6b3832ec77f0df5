package io.kvtier.host;

import io.kvtier.hostlib.ConfigValues;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Renders run reports as a text table or as JSON. */
final class RunSummary {
    private RunSummary() {}

    static Map<String, Object> toMap(Workload.RunReport r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", r.name);
        m.put("type", r.type);
        m.put("chunks", r.chunks);
        m.put("chunk_bytes", r.chunkSize);
        m.put("bytes", r.bytes());
        m.put("store", Map.of("gb_per_s", round(r.gigabytesPerSecond(r.storeNanos)), "stored", r.stored,
                "errors", r.storeErrors, "p50_ms", round(r.store.percentileMillis(50)),
                "p99_ms", round(r.store.percentileMillis(99))));
        m.put("lookup", Map.of("hits", r.hits, "misses", r.misses, "errors", r.lookupErrors,
                "unexpected", r.unexpectedLookups, "p50_ms", round(r.lookup.percentileMillis(50)),
                "p99_ms", round(r.lookup.percentileMillis(99))));
        m.put("load", Map.of("gb_per_s", round(r.gigabytesPerSecond(r.loadNanos)), "verified", r.verified,
                "corrupted", r.corrupted, "not_loaded", r.notLoaded, "p50_ms", round(r.load.percentileMillis(50)),
                "p99_ms", round(r.load.percentileMillis(99))));
        m.put("delete", Map.of("deleted", r.deleted, "errors", r.deleteErrors, "survived", r.survivedDelete,
                "p50_ms", round(r.delete.percentileMillis(50)), "p99_ms", round(r.delete.percentileMillis(99))));
        m.put("errors", r.errors());
        m.put("passed", r.passed());
        m.put("metrics", r.metrics);
        return m;
    }

    static String toJson(List<Workload.RunReport> reports) {
        return ConfigValues.toJson(Map.of("instances", reports.stream().map(RunSummary::toMap).toList(),
                "passed", reports.stream().allMatch(Workload.RunReport::passed)));
    }

    static String toText(Workload.RunReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%s (%s): %d chunks x %d bytes = %.1f MiB%n", r.name, r.type, r.chunks, r.chunkSize,
                r.bytes() / (1024.0 * 1024.0)));
        sb.append(String.format("  store   %7.2f GB/s  stored %d  errors %d  p50 %.3f ms  p99 %.3f ms%n",
                r.gigabytesPerSecond(r.storeNanos), r.stored, r.storeErrors, r.store.percentileMillis(50),
                r.store.percentileMillis(99)));
        sb.append(String.format("  lookup  hits %d  misses %d  errors %d  unexpected %d  p50 %.3f ms  p99 %.3f ms%n",
                r.hits, r.misses, r.lookupErrors, r.unexpectedLookups, r.lookup.percentileMillis(50),
                r.lookup.percentileMillis(99)));
        sb.append(String.format("  load    %7.2f GB/s  verified %d  corrupted %d  not loaded %d  p50 %.3f ms  p99 %.3f ms%n",
                r.gigabytesPerSecond(r.loadNanos), r.verified, r.corrupted, r.notLoaded, r.load.percentileMillis(50),
                r.load.percentileMillis(99)));
        sb.append(String.format("  delete  deleted %d  errors %d  still found after delete %d  p50 %.3f ms  p99 %.3f ms%n",
                r.deleted, r.deleteErrors, r.survivedDelete, r.delete.percentileMillis(50),
                r.delete.percentileMillis(99)));
        if (!r.metrics.isEmpty()) {
            sb.append("  metrics ");
            r.metrics.forEach((name, value) -> sb.append(' ').append(name).append('=').append(value));
            sb.append(System.lineSeparator());
        }
        sb.append(String.format("  %s: %d errors%n", r.passed() ? "PASSED" : "FAILED", r.errors()));
        return sb.toString();
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
