package io.kvtier.mooncake;

import com.codahale.metrics.MetricRegistry;
import com.google.inject.Module;
import com.google.inject.util.Modules;
import io.kvtier.hostlib.DeclaredSettings;
import io.kvtier.mooncake.binding.NativeAbi.MooncakeNative;
import io.kvtier.mooncake.binding.NativeLibraryLocator;
import io.kvtier.mooncake.health.Timings;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.ObjectKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

/** The in-memory Mooncake test double (built by CMake on every build), and helpers around it. */
public final class TestDouble {
    static final String PROPERTY = "kvtier.mooncake.testdouble";
    /** The double keeps its "cluster" in memory: there is no master to reach before creating a client. */
    static final MooncakeStoreModule.MasterCheck NO_MASTER = config -> {};

    private TestDouble() {}

    static Path path() {
        String path = System.getProperty(PROPERTY);
        if (path == null) {
            throw new IllegalStateException("system property " + PROPERTY + " is not set (surefire sets it)");
        }
        Path p = Path.of(path);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("test double not built: " + p);
        }
        return p;
    }

    static MooncakeNative binding() {
        return NativeLibraryLocator.explicit(path()).load();
    }

    /** The batch calls the double recorded in {@code file} (testdouble_calls_file) so far; none before the first. */
    static List<String> calls(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static MooncakeStoreProvider provider() {
        return provider(lib -> lib);
    }

    /** A provider whose instances all share one wrapped binding, as they share the real one. */
    public static MooncakeStoreProvider provider(UnaryOperator<MooncakeNative> wrap) {
        return provider(wrap, Timings.DEFAULTS);
    }

    public static MooncakeStoreProvider provider(UnaryOperator<MooncakeNative> wrap, Timings timings) {
        return new MooncakeStoreProvider(overDouble(wrap.apply(binding()), timings));
    }

    /** A provider over the double whose instances also take {@code replacing}'s bindings: a failing step, say. */
    static MooncakeStoreProvider provider(UnaryOperator<MooncakeNative> wrap, Module replacing) {
        return new MooncakeStoreProvider(Modules.override(overDouble(wrap.apply(binding()), Timings.DEFAULTS)).with(replacing));
    }

    /** What tests replace in every instance: the library, the master check the double cannot pass, the timings. */
    static Module overDouble(MooncakeNative lib, Timings timings) {
        return binder -> {
            binder.bind(MooncakeNative.class).toInstance(lib);
            binder.bind(MooncakeStoreModule.MasterCheck.class).toInstance(NO_MASTER);
            binder.bind(Timings.class).toInstance(timings);
        };
    }

    /**
     * A body every test starts from: loopback, no metadata server, and a master address of its
     * own, so each test sees an empty "cluster" in the double.
     */
    public static Map<String, Object> body() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "mooncake_store");
        body.put("local_hostname", "127.0.0.1");
        body.put("metadata_server", "P2PHANDSHAKE");
        body.put("master_server_addr", "double-" + UUID.randomUUID() + ":1");
        body.put("protocol", "tcp");
        return body;
    }

    public static Map<String, Object> body(Object... extra) {
        Map<String, Object> body = body();
        for (int i = 0; i < extra.length; i += 2) {
            body.put((String) extra[i], extra[i + 1]);
        }
        return body;
    }

    static AdapterContext context(String name) {
        return context(name, new MetricRegistry(), Optional.empty());
    }

    static AdapterContext context(String name, MetricRegistry metrics, Optional<L1MemoryDesc> l1) {
        return new AdapterContext(name, l1, metrics, "kvtier.l2." + name);
    }

    static MooncakeStoreAdapter create(Map<String, Object> body) {
        return create(provider(), body, context("mc"));
    }

    static MooncakeStoreAdapter create(MooncakeStoreProvider provider, Map<String, Object> body, AdapterContext context) {
        return (MooncakeStoreAdapter) provider.create(provider.parseConfig(settings(body)), context);
    }

    /** A body as a host hands it over; errors name "test" as their origin. */
    public static AdapterSettings settings(Map<String, Object> body) {
        return DeclaredSettings.fromMap(new MooncakeStoreProvider(), body, "test");
    }

    public static ObjectKey key(int i) {
        return new ObjectKey(ByteBuffer.allocate(4).putInt(i).array(), "test-model", 0);
    }
}
