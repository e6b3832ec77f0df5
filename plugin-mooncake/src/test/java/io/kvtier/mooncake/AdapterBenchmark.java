package io.kvtier.mooncake;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.util.List;
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
 * One batch through the whole adapter against the test double: buffer checks, the hand-off to a
 * lane thread and back (the dominant fixed cost), the native call and the per-key results. For
 * the binding alone see {@link BindingBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AdapterBenchmark {
    private static final int VALUE = 64;

    @Param({"1", "64"})
    public int keys;

    private MooncakeStoreAdapter adapter;
    private List<ObjectKey> batch;
    private List<L1Slice> slices;

    @Setup(Level.Trial)
    public void setUp() {
        adapter = TestDouble.create(TestDouble.body("per_op_workers", java.util.Map.of("lookup", 1, "retrieve", 1)));
        OffHeapRegion region = new OffHeapRegion(keys * VALUE);
        batch = IntStream.range(0, keys).mapToObj(TestDouble::key).toList();
        slices = IntStream.range(0, keys).mapToObj(i -> region.slice(i * VALUE, VALUE)).toList();
        if (!adapter.store(batch, slices).join().allOk()) {
            throw new IllegalStateException("setup store failed");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        adapter.close();
    }

    @Benchmark
    public BatchResult lookup() {
        BatchResult result = adapter.lookupAndLock(batch).join();
        adapter.unlock(batch);
        return result;
    }

    @Benchmark
    public BatchResult load() {
        return adapter.load(batch, slices).join();
    }
}
