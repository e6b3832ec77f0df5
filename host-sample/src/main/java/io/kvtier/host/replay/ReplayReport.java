package io.kvtier.host.replay;

import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.kvtier.host.ErrorGroup;
import io.kvtier.host.Latencies;
import io.kvtier.hostlib.ConfigValues;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyOutcome;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * One instance's replay: what it hit, beside what the oracles say it could have. Workers count
 * into it as requests complete; it is read once every request has.
 */
final class ReplayReport {
    static final List<String> OPERATIONS = List.of("delete", "lookup", "load", "store");

    final String name;
    final String type;
    final List<Trace.Request> requests;
    final Replayer.Settings settings;
    /** 0 when unbounded or unknown: the LRU oracle is then the unbounded one. */
    final long capacityBlocks;
    /** Per request: its leading blocks loaded and verified, what a host could have skipped computing. */
    final int[] hits;
    final int[] lruHits;
    final int[] maxHits;
    final long blocks;
    final Latencies prefixFetch = new Latencies();
    final Latencies lookup = new Latencies();
    final Latencies load = new Latencies();
    final Latencies store = new Latencies();
    /** Open loop only: how late each request started after its time in the trace. */
    final Latencies lag = new Latencies();
    private final Map<String, Map<String, Long>> errors = new TreeMap<>();
    private long failingErrors;
    private long corrupted;
    private long foundThenMissing;
    private long bytesLoaded;
    private long bytesStored;
    private long deletedBefore;
    private long elapsedNanos;
    /** The instance's own timers after the replay, by name; empty if it has none. */
    private final Map<String, Snapshot> adapterTimers = new TreeMap<>();

    ReplayReport(String name, String type, List<Trace.Request> requests, Replayer.Settings settings,
                 long capacityBlocks, int[] lruHits, int[] maxHits) {
        this.name = name;
        this.type = type;
        this.requests = requests;
        this.settings = settings;
        this.capacityBlocks = capacityBlocks;
        this.hits = new int[requests.size()];
        this.lruHits = lruHits;
        this.maxHits = maxHits;
        this.blocks = requests.stream().mapToLong(r -> r.blocks().length).sum();
        OPERATIONS.forEach(op -> errors.put(op, new TreeMap<>()));
    }

    /** Counts the errors among {@code outcomes}; a full store does not fail the replay, as a cache evicts. */
    synchronized void countErrors(String operation, List<KeyOutcome> outcomes) {
        for (KeyOutcome outcome : outcomes) {
            outcome.error().ifPresent(error -> countError(operation, error));
        }
    }

    private void countError(String operation, KeyError error) {
        errors.get(operation).merge(ErrorGroup.label(error), 1L, Long::sum);
        if (error.kind() != ErrorKind.NO_CAPACITY) {
            failingErrors++;
        }
    }

    synchronized void countCorrupted() {
        corrupted++;
    }

    synchronized void countFoundThenMissing() {
        foundThenMissing++;
    }

    synchronized void countMoved(long loaded, long stored) {
        bytesLoaded += loaded;
        bytesStored += stored;
    }

    synchronized void countDeletedBefore(long keys) {
        deletedBefore += keys;
    }

    synchronized void finished(long nanos) {
        elapsedNanos = nanos;
    }

    synchronized void adapterTimers(Map<String, Timer> timers) {
        timers.forEach((name, timer) -> adapterTimers.put(name, timer.getSnapshot()));
    }

    /** Nothing corrupted, and no error but a full store's. */
    synchronized boolean passed() {
        return corrupted == 0 && failingErrors == 0;
    }

    static double rate(int[] hits, long blocks) {
        return IntStream.of(hits).asLongStream().sum() / (double) blocks;
    }

    double hitRate() {
        return rate(hits, blocks);
    }

    /** Requests per second the trace asks for at the speed, or null in a closed loop or a trace of one instant. */
    Double askedRate() {
        long spanMs = requests.get(requests.size() - 1).timestampMs() - requests.get(0).timestampMs();
        return settings.closedLoop() || spanMs == 0 ? null : requests.size() / (spanMs / 1000.0 / settings.speed());
    }

    synchronized double achievedRate() {
        return requests.size() / (elapsedNanos / 1e9);
    }

    synchronized Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("type", type);
        m.put("mode", settings.closedLoop() ? "closed" : "open");
        m.put("speed", settings.closedLoop() ? null : settings.speed());
        m.put("concurrency", settings.concurrency());
        m.put("requests", requests.size());
        m.put("blocks", blocks);
        m.put("block_bytes", settings.blockBytes());
        m.put("capacity_blocks", capacityBlocks);
        m.put("hit_blocks", IntStream.of(hits).asLongStream().sum());
        m.put("hit_rate", round(hitRate(), 4));
        // No bounded oracle without a capacity: null, not the unbounded cache's rate under its name.
        m.put("lru_hit_rate", capacityBlocks == 0 ? null : round(rate(lruHits, blocks), 4));
        m.put("max_hit_rate", round(rate(maxHits, blocks), 4));
        m.put("corrupted", corrupted);
        m.put("found_then_missing", foundThenMissing);
        m.put("deleted_before", deletedBefore);
        OPERATIONS.forEach(op -> m.put(op + "_errors", errors.get(op)));
        m.put("prefix_fetch_ms", Map.of("p50", ms(prefixFetch, 50), "p99", ms(prefixFetch, 99),
                "p999", ms(prefixFetch, 99.9)));
        m.put("lookup_ms", Map.of("p50", ms(lookup, 50), "p99", ms(lookup, 99)));
        m.put("load_ms", Map.of("p50", ms(load, 50), "p99", ms(load, 99)));
        m.put("store_ms", Map.of("p50", ms(store, 50), "p99", ms(store, 99)));
        m.put("bytes_loaded", bytesLoaded);
        m.put("bytes_stored", bytesStored);
        m.put("seconds", round(elapsedNanos / 1e9, 3));
        Double asked = askedRate();
        m.put("requests_per_s_asked", asked == null ? null : round(asked, 2));
        m.put("requests_per_s_achieved", round(achievedRate(), 2));
        if (!settings.closedLoop()) {
            m.put("schedule_lag_ms", Map.of("p99", ms(lag, 99), "max", ms(lag, 100)));
        }
        Map<String, Object> timers = new TreeMap<>();
        adapterTimers.forEach((name, snapshot) -> timers.put(name, Map.of("p50", ms(snapshot.getMedian()),
                "p99", ms(snapshot.get99thPercentile()))));
        m.put("adapter_timers_ms", timers);
        m.put("passed", passed());
        return m;
    }

    synchronized String toText() {
        StringBuilder sb = new StringBuilder();
        line(sb, "%s (%s): %d requests, %d blocks of %s, %s", name, type, requests.size(), blocks,
                ConfigValues.readableBytes(settings.blockBytes()), settings.closedLoop()
                        ? "closed loop, " + settings.concurrency() + " at once"
                        : "open loop at " + settings.speed() + "x, at most " + settings.concurrency() + " at once");
        if (capacityBlocks == 0) {
            line(sb, "  hit rate      %.2f%%  (unbounded: %.2f%%; no exact LRU: the instance reports no capacity, "
                    + "so the only oracle is unbounded; give --capacity-blocks N, the cluster's segment bytes / %s)",
                    100 * hitRate(), 100 * rate(maxHits, blocks), ConfigValues.readableBytes(settings.blockBytes()));
        } else {
            line(sb, "  hit rate      %.2f%%  (exact LRU of %d blocks: %.2f%%, unbounded: %.2f%%)", 100 * hitRate(),
                    capacityBlocks, 100 * rate(lruHits, blocks), 100 * rate(maxHits, blocks));
        }
        line(sb, "  checks        corrupted %d  found then missing %d  (deleted before the replay: %d)",
                corrupted, foundThenMissing, deletedBefore);
        line(sb, "  prefix fetch  p50 %.3f ms  p99 %.3f ms  p99.9 %.3f ms  (lookup + load, per request)",
                ms(prefixFetch, 50), ms(prefixFetch, 99), ms(prefixFetch, 99.9));
        line(sb, "  lookup        p50 %.3f ms  p99 %.3f ms", ms(lookup, 50), ms(lookup, 99));
        line(sb, "  load          p50 %.3f ms  p99 %.3f ms  %s loaded", ms(load, 50), ms(load, 99),
                ConfigValues.readableBytes(bytesLoaded));
        line(sb, "  store         p50 %.3f ms  p99 %.3f ms  %s stored", ms(store, 50), ms(store, 99),
                ConfigValues.readableBytes(bytesStored));
        Double asked = askedRate();
        line(sb, "  rate          asked %s, achieved %.1f requests/s in %.2f s%s",
                asked == null ? "max" : String.format("%.1f requests/s", asked), achievedRate(), elapsedNanos / 1e9,
                settings.closedLoop() ? "" : String.format("; behind schedule p99 %.1f ms, max %.1f ms",
                        ms(lag, 99), ms(lag, 100)));
        adapterTimers.forEach((name, snapshot) -> line(sb, "  %-27s p50 %.3f ms  p99 %.3f ms", "timer " + name,
                ms(snapshot.getMedian()), ms(snapshot.get99thPercentile())));
        errors.forEach((op, groups) -> {
            if (!groups.isEmpty()) {
                line(sb, "  %-13s %s", op + " errors", groups.toString().replaceAll("[{}]", ""));
            }
        });
        line(sb, "  %s", passed() ? "PASSED" : "FAILED");
        return sb.toString();
    }

    private static void line(StringBuilder sb, String format, Object... args) {
        sb.append(String.format(format, args)).append(System.lineSeparator());
    }

    private static double ms(Latencies latencies, double percentile) {
        return round(latencies.percentileMillis(percentile), 3);
    }

    /** A Dropwizard timer's nanoseconds, in ms. */
    private static double ms(double nanos) {
        return round(nanos / 1e6, 3);
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
