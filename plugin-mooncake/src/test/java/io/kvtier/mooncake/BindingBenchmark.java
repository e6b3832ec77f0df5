package io.kvtier.mooncake;

import io.kvtier.mooncake.binding.BatchSlab;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.config.ReplicateConfig;
import io.kvtier.mooncake.deadline.SliceGuard;
import io.kvtier.spi.ObjectKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The cost of one batch through the binding (key slab + JNR-FFI call + result arrays) against the
 * test double, on the calling thread: no lanes, so what is measured is the binding, plus the
 * double's own in-memory work (a mutex and a hash lookup per key; a memcpy of VALUE bytes per
 * key for get). {@code encode} is the Java-only part (key slab), {@code emptyBatch} the fixed
 * cost of one array-passing native call that returns at once, {@code askMaster} the fixed cost
 * of a scalar native call.
 *
 * <p>Run: {@code mvn -pl spi,plugin-mooncake -am -Pjmh -DskipTests verify} (see the pom's jmh
 * profile; {@code -Djmh.args="..."} passes JMH options).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BindingBenchmark {
    private static final int VALUE = 64;

    @Param({"1", "64"})
    public int keys;

    private MooncakeClient client;
    private OffHeapRegion region;
    private List<ObjectKey> batch;
    private long[] addrs;
    private long[] sizes;

    @Setup(Level.Trial)
    public void setUp() {
        client = MooncakeClient.open(TestDouble.binding(), Map.of("local_hostname", "127.0.0.1",
                "metadata_server", "P2PHANDSHAKE", "master_server_addr", "bench-" + UUID.randomUUID() + ":1"),
                Duration.ofSeconds(5), 1);
        region = new OffHeapRegion(keys * VALUE);
        batch = IntStream.range(0, keys).mapToObj(TestDouble::key).toList();
        addrs = new long[keys];
        sizes = new long[keys];
        for (int i = 0; i < keys; i++) {
            addrs[i] = region.address + (long) i * VALUE;
            sizes[i] = VALUE;
        }
        long[] rc = client.store(batch, null, addrs, sizes, ReplicateConfig.DEFAULTS, SliceGuard.ALWAYS);
        for (long r : rc) {
            if (r != 0) {
                throw new IllegalStateException("setup put failed: " + r);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        client.close();
    }

    @Benchmark
    public long[] exists() {
        return client.lookup(batch);
    }

    @Benchmark
    public long[] get() {
        return client.load(batch, null, addrs, sizes, SliceGuard.ALWAYS).results();
    }

    @Benchmark
    public BatchSlab encode() {
        BatchSlab slab = BatchSlab.forCurrentThread();
        slab.encode(batch, null, keys);
        return slab;
    }

    @Benchmark
    public long[] emptyBatch() {
        return client.lookup(List.of());
    }

    @Benchmark
    public String askMaster() {
        return client.askMaster();
    }
}
