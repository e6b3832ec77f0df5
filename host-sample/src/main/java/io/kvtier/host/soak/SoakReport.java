package io.kvtier.host.soak;

import io.kvtier.host.Main;
import io.kvtier.hostlib.ConfigValues;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** The end of a soak: per instance and per operation, what happened, as text or one JSON line. */
final class SoakReport {
    /**
     * @param longestWaitNanos the longest any caller waited for one batch of this instance
     * @param afterFault       how many of the objects its faults may have hit the soak could judge
     */
    record InstanceReport(String name, String type, Map<Op, OpStats.Snapshot> ops, List<FaultWindows.Window> windows,
                          long longestWaitNanos, Sealed sealed, AfterFault.Snapshot afterFault) {
        long corrupted() {
            return ops.values().stream().mapToLong(OpStats.Snapshot::corrupted).sum();
        }

        long lost() {
            return ops.values().stream().mapToLong(OpStats.Snapshot::lost).sum();
        }

        long evicted() {
            return ops.values().stream().mapToLong(OpStats.Snapshot::evicted).sum();
        }

        long errors() {
            return ops.values().stream().mapToLong(OpStats.Snapshot::errors).sum();
        }

        /**
         * Nothing lost and nothing corrupted: errors and misses during faults are allowed, but not of
         * sealed keys; and if faults may have hit stored keys, some of them were judged.
         */
        boolean passed() {
            return verdict().equals(PASSED);
        }

        /**
         * {@link #FAILED} on evidence; else {@link #INCONCLUSIVE} when its faults may have hit objects
         * and it judged none of them, nor read a sealed key at the end.
         */
        String verdict() {
            if (corrupted() > 0 || lost() > 0 || !sealed.passed()) {
                return FAILED;
            }
            boolean sealedRead = sealed.verified() + sealed.evicted() > 0;
            return afterFault.inconclusive() && !sealedRead ? INCONCLUSIVE : PASSED;
        }
    }

    static final String PASSED = "PASSED";
    static final String FAILED = "FAILED";
    static final String INCONCLUSIVE = "INCONCLUSIVE";

    final List<InstanceReport> instances = new ArrayList<>();
    /** Each adapter's own metrics at the end, by instance name. */
    final Map<String, Map<String, Object>> adapterMetrics = new LinkedHashMap<>();
    final long startNanos;
    final double seconds;
    /** Ended before its duration: interrupted, or a worker failed. */
    final boolean stoppedEarly;
    /** Run with {@code --evicting}; only then does the text show evicted counts, so without it the text is as before. */
    final boolean evicting;

    SoakReport(List<Target> targets, long startNanos, long endNanos, boolean stoppedEarly, boolean evicting) {
        this.startNanos = startNanos;
        this.stoppedEarly = stoppedEarly;
        this.evicting = evicting;
        this.seconds = (endNanos - startNanos) / 1e9;
        for (Target target : targets) {
            Map<Op, OpStats.Snapshot> ops = new EnumMap<>(Op.class);
            for (Op op : Op.values()) {
                ops.put(op, target.stats(op).snapshot());
            }
            instances.add(new InstanceReport(target.name, target.type, ops, target.faults.windows(),
                    target.waits.longestNanos(), target.sealedAtEnd, target.afterFault.snapshot()));
        }
    }

    boolean passed() {
        return verdict().equals(PASSED);
    }

    /** FAILED if any instance failed, else INCONCLUSIVE if any was, else PASSED. */
    String verdict() {
        List<String> verdicts = instances.stream().map(InstanceReport::verdict).toList();
        return verdicts.contains(FAILED) ? FAILED : verdicts.contains(INCONCLUSIVE) ? INCONCLUSIVE : PASSED;
    }

    int exitCode() {
        return passed() ? Main.OK : Main.FAILED;
    }

    InstanceReport instance(String name) {
        return instances.stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow();
    }

    String toText() {
        StringBuilder sb = new StringBuilder();
        for (InstanceReport r : instances) {
            sb.append(String.format("%s (%s): %s in %.1f s%n", r.name(), r.type(), r.verdict(), seconds));
            for (Op op : Op.values()) {
                OpStats.Snapshot s = r.ops().get(op);
                sb.append(String.format("  %-7s ok %d  missing %d  errors %d", op.label(), s.ok(), s.missing(), s.errors()));
                if (!s.errorsByKind().isEmpty()) {
                    sb.append(" (").append(s.errorsByKind().toString().replaceAll("[{}]", "")).append(')');
                }
                if (op == Op.LOAD) {
                    sb.append(String.format("  verified %d  corrupted %d (stale %d, foreign %d)", s.verified(),
                            s.corrupted(), s.stale(), s.foreign()));
                }
                if (op != Op.STORE) {
                    sb.append(String.format("  lost %d", s.lost()));
                    if (evicting) {
                        sb.append(String.format("  evicted %d", s.evicted()));
                    }
                    sb.append(String.format("  missing after fault %d  phantom %d", s.missingAfterFault(), s.phantom()));
                }
                sb.append(String.format("  %.0f ops/s", s.batches() / seconds));
                if (op == Op.STORE || op == Op.LOAD) {
                    sb.append(String.format("  %.1f MB, %.1f MB/s", s.bytes() / 1e6, s.bytes() / seconds / 1e6));
                }
                sb.append(System.lineSeparator());
            }
            sb.append(String.format("  longest batch wait %.0f ms%n", r.longestWaitNanos() / 1e6));
            if (r.sealed().keys() > 0) {
                sb.append(String.format("  sealed keys %d: verified %d, missing %d, %scorrupted %d, unread %d at the end%n",
                        r.sealed().keys(), r.sealed().verified(), r.sealed().missing(),
                        evicting ? "evicted " + r.sealed().evicted() + ", " : "", r.sealed().corrupted(), r.sealed().unread()));
            }
            Map<String, Long> errors = errorsByKind(r);
            sb.append("  errors by kind: ").append(errors.isEmpty() ? "none" : errors.toString().replaceAll("[{}]", ""))
                    .append(System.lineSeparator());
            sb.append("  fault windows: ").append(r.windows().isEmpty() ? "none" : "").append(System.lineSeparator());
            for (FaultWindows.Window w : r.windows()) {
                sb.append(String.format("    %.1f s - %s  %d errors  (%s)%n", offset(w.startNanos()),
                        w.open() ? "open at the end" : String.format("%.1f s", offset(w.endNanos())), w.errors(),
                        w.reason()));
            }
            if (atRisk(r) > 0) {
                sb.append(String.format("  after faults: judged %d of %d objects a fault may have hit; %d not judged "
                        + "(a store or delete failed on them first, or nothing asked for them again)%n",
                        r.afterFault().judged(), atRisk(r), r.afterFault().notJudged()));
            }
            Map<String, Object> own = adapterMetrics.getOrDefault(r.name(), Map.of());
            if (!own.isEmpty()) {
                sb.append("  adapter metrics: ").append(own.toString().replaceAll("[{}]", "")).append(System.lineSeparator());
            }
            sb.append("  every 5 s:").append(System.lineSeparator());
            for (int bucket : buckets(r)) {
                sb.append(String.format("    %5.1f-%-5.1f s  store %7.1f MB/s  load %7.1f MB/s  %6.0f ops/s%n",
                        bucket * 5.0, bucket * 5.0 + bucketSeconds(bucket), bucketBytes(r, Op.STORE, bucket) / bucketSeconds(bucket) / 1e6,
                        bucketBytes(r, Op.LOAD, bucket) / bucketSeconds(bucket) / 1e6,
                        bucketOps(r, bucket) / bucketSeconds(bucket)));
            }
        }
        long atRisk = instances.stream().mapToLong(SoakReport::atRisk).sum();
        sb.append(String.format("soak %s: %d corrupted, %d lost, %s%d errors in %d instance(s) over %.1f s%s%s%n",
                verdict(), instances.stream().mapToLong(InstanceReport::corrupted).sum(),
                instances.stream().mapToLong(InstanceReport::lost).sum(),
                evicting ? instances.stream().mapToLong(InstanceReport::evicted).sum() + " evicted, " : "",
                instances.stream().mapToLong(InstanceReport::errors).sum(), instances.size(), seconds,
                atRisk == 0 ? "" : String.format("; judged %d of %d objects a fault may have hit",
                        instances.stream().mapToLong(r -> r.afterFault().judged()).sum(), atRisk),
                stoppedEarly ? " (stopped early)" : ""));
        return sb.toString();
    }

    String toJson() {
        List<Object> list = new ArrayList<>();
        for (InstanceReport r : instances) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", r.name());
            m.put("type", r.type());
            m.put("passed", r.passed());
            m.put("verdict", r.verdict());
            m.put("corrupted", r.corrupted());
            m.put("lost", r.lost());
            m.put("evicted", r.evicted());
            m.put("longest_wait_ms", round(r.longestWaitNanos() / 1e6));
            Map<String, Object> ops = new LinkedHashMap<>();
            r.ops().forEach((op, s) -> ops.put(op.label(), toMap(s)));
            m.put("ops", ops);
            m.put("errors_by_kind", errorsByKind(r));
            m.put("sealed", toMap(r.sealed()));
            m.put("after_fault", Map.of("judged", r.afterFault().judged(), "not_judged", r.afterFault().notJudged()));
            m.put("fault_windows", r.windows().stream().map(this::toMap).toList());
            List<Object> buckets = new ArrayList<>();
            for (int bucket : buckets(r)) {
                Map<String, Object> b = new LinkedHashMap<>();
                b.put("start_s", bucket * 5);
                for (Op op : Op.values()) {
                    long[] v = r.ops().get(op).buckets().getOrDefault(bucket, new long[2]);
                    b.put(op.label(), Map.of("ops_per_s", round(v[0] / bucketSeconds(bucket)),
                            "mb_per_s", round(v[1] / bucketSeconds(bucket) / 1e6)));
                }
                buckets.add(b);
            }
            m.put("every_5s", buckets);
            m.put("metrics", adapterMetrics.getOrDefault(r.name(), Map.of()));
            list.add(m);
        }
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("passed", passed());
        top.put("verdict", verdict());
        top.put("seconds", round(seconds));
        top.put("stopped_early", stoppedEarly);
        top.put("evicting", evicting);
        top.put("instances", list);
        return ConfigValues.toJson(top);
    }

    private Map<String, Object> toMap(OpStats.Snapshot s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("batches", s.batches());
        m.put("ok", s.ok());
        m.put("missing", s.missing());
        m.put("errors", s.errors());
        m.put("errors_by_kind", s.errorsByKind());
        m.put("verified", s.verified());
        m.put("corrupted", s.corrupted());
        m.put("stale", s.stale());
        m.put("foreign", s.foreign());
        m.put("lost", s.lost());
        m.put("evicted", s.evicted());
        m.put("missing_after_fault", s.missingAfterFault());
        m.put("phantom", s.phantom());
        m.put("bytes", s.bytes());
        m.put("ops_per_s", round(s.batches() / seconds));
        m.put("mb_per_s", round(s.bytes() / seconds / 1e6));
        return m;
    }

    /** In a fixed order, as the rest of the report (Map.of has none). */
    private static Map<String, Object> toMap(Sealed s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("keys", s.keys());
        m.put("verified", s.verified());
        m.put("missing", s.missing());
        m.put("evicted", s.evicted());
        m.put("corrupted", s.corrupted());
        m.put("unread", s.unread());
        return m;
    }

    private Map<String, Object> toMap(FaultWindows.Window w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("start_s", round(offset(w.startNanos())));
        m.put("end_s", w.open() ? null : round(offset(w.endNanos())));
        m.put("errors", w.errors());
        m.put("reason", w.reason());
        m.put("marked", w.marked());
        return m;
    }

    private static Map<String, Long> errorsByKind(InstanceReport r) {
        Map<String, Long> all = new java.util.TreeMap<>();
        r.ops().values().forEach(s -> s.errorsByKind().forEach((cause, n) -> all.merge(cause, n, Long::sum)));
        return all;
    }

    /** The keys its faults may have hit, judged or not. */
    private static long atRisk(InstanceReport r) {
        return r.afterFault().judged() + r.afterFault().notJudged();
    }

    private static TreeSet<Integer> buckets(InstanceReport r) {
        TreeSet<Integer> all = new TreeSet<>();
        r.ops().values().forEach(s -> all.addAll(s.buckets().keySet()));
        return all;
    }

    private static long bucketBytes(InstanceReport r, Op op, int bucket) {
        return r.ops().get(op).buckets().getOrDefault(bucket, new long[2])[1];
    }

    private static long bucketOps(InstanceReport r, int bucket) {
        return r.ops().values().stream().mapToLong(s -> s.buckets().getOrDefault(bucket, new long[2])[0]).sum();
    }

    /** The last bucket is as long as what was left of the soak. */
    private double bucketSeconds(int bucket) {
        return Math.max(1e-3, Math.min(5.0, seconds - bucket * 5.0));
    }

    private double offset(long nanos) {
        return (nanos - startNanos) / 1e9;
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
