package io.kvtier.mooncake;

import io.kvtier.mooncake.binding.NativeLibraryLocator;
import io.kvtier.mooncake.config.MooncakeStoreConfig;
import io.kvtier.spi.L2Adapter;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The first instance a host creates, and its close, each in a JVM of its own (one fork a sample):
 * the production wiring, as a host discovers and declares it, over the test double's library, with
 * a listening socket for its master to be reachable. Guice's and JNR-FFI's classes load during
 * this creation, once per process. The median of the 20 forks is p0.50.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(20)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class FirstCreationBenchmark {

    /** A host that discovered the type and parsed one declaration: nothing created yet. */
    @State(Scope.Benchmark)
    public static class Declared {
        ServerSocket master;
        MooncakeStoreProvider provider;
        MooncakeStoreConfig config;
        L2Adapter made;

        @Setup(Level.Trial)
        public void declare() throws IOException {
            System.setProperty(NativeLibraryLocator.PROPERTY, TestDouble.path().toString());
            master = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            provider = new MooncakeStoreProvider();
            config = provider.parseConfig(
                    TestDouble.settings(TestDouble.body("master_server_addr", "127.0.0.1:" + master.getLocalPort())));
        }

        @TearDown(Level.Trial)
        public void stop() throws IOException {
            if (made != null) {
                made.close();
            }
            master.close();
        }
    }

    /** The same host right after its first creation. */
    @State(Scope.Benchmark)
    public static class Created {
        L2Adapter made;

        @Setup(Level.Trial)
        public void create(Declared declared) {
            made = declared.provider.create(declared.config, TestDouble.context("first"));
        }
    }

    @Benchmark
    public L2Adapter create(Declared declared) {
        declared.made = declared.provider.create(declared.config, TestDouble.context("first"));
        return declared.made;
    }

    @Benchmark
    public void close(Created created) {
        created.made.close();
    }
}
