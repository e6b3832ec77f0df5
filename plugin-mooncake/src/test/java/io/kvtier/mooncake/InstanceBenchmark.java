package io.kvtier.mooncake;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Creating and closing one instance over the test double: its wiring (one injector per instance),
 * the native client, lanes and health, without Mooncake's setup. Single shots, so each is one
 * whole creation or close: {@code -Djmh.args="-f 1 -wi 5 -i 20 -bm ss InstanceBenchmark"} gives
 * the median as p0.50.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class InstanceBenchmark {
    private final MooncakeStoreProvider provider = TestDouble.provider();
    private MooncakeStoreAdapter made;
    private MooncakeStoreAdapter toClose;

    @Setup(Level.Invocation)
    public void makeOneToClose() {
        toClose = TestDouble.create(provider, TestDouble.body(), TestDouble.context("to-close"));
    }

    @TearDown(Level.Invocation)
    public void closeWhatWasMade() {
        if (made != null) {
            made.close();
            made = null;
        }
        if (toClose != null) {
            toClose.close();
            toClose = null;
        }
    }

    @Benchmark
    public MooncakeStoreAdapter create() {
        made = TestDouble.create(provider, TestDouble.body(), TestDouble.context("made"));
        return made;
    }

    @Benchmark
    public void close() {
        toClose.close();
        toClose = null;
    }
}
