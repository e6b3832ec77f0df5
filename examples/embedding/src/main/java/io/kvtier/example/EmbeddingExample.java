package io.kvtier.example;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.ConfiguredAdapter;
import io.kvtier.hostlib.Declarations;
import io.kvtier.hostlib.Instances;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.hostlib.L2AdapterRegistry;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** A host of its own: loads declarations, creates the instances, stores and loads one object, and closes. */
public final class EmbeddingExample {
    private EmbeddingExample() {}

    /** @param args the declaration file (default: kvtier.conf) */
    public static void main(String[] args) {
        System.out.println(storeAndLoadOne(Path.of(args.length > 0 ? args[0] : "kvtier.conf")));
    }

    static String storeAndLoadOne(Path declarations) {
        // The adapter types on the class path (memory, from kvtier-adapter-memory), and the isolated
        // plugins in the directories under plugins/ (none here), each in a class loader of its own.
        L2AdapterRegistry registry = L2AdapterRegistry.load(EmbeddingExample.class.getClassLoader(), Path.of("plugins"));
        registry.loadFailures().forEach(failure -> System.err.println("warning: " + failure));
        List<ConfiguredAdapter<?>> declared = Declarations.load(registry, List.of(declarations), List.of());
        declared.forEach(adapter -> adapter.warnings().forEach(warning -> System.err.println("warning: " + warning)));

        // L1: off-heap and page-aligned; an RDMA adapter registers it (L1Arena.desc()) when created.
        try (L1Arena l1 = L1Arena.allocate(16 << 20, L1Arena.DEFAULT_ALIGNMENT, false);
             Instances instances = Instances.create(declared, l1, new MetricRegistry())) {
            L2Adapter hot = instances.select("hot").adapter();
            ObjectKey key = new ObjectKey("chunk-0".getBytes(StandardCharsets.UTF_8), "my-model", 0);
            byte[] bytes = "one KV-cache chunk".getBytes(StandardCharsets.UTF_8);

            L1Slice chunk = l1.allocate(bytes.length);
            chunk.buffer().put(bytes);
            // join() is bounded: Instances fails a batch after Instances.DEFAULT_BATCH_BOUND.
            BatchResult stored = hot.store(List.of(key), List.of(chunk)).join();
            require(stored.get(0) == KeyResult.OK, "store: " + stored.outcomes());

            L1Slice copy = l1.allocate(bytes.length);
            BatchResult loaded = hot.load(List.of(key), List.of(copy)).join();
            require(loaded.get(0) == KeyResult.OK, "load: " + loaded.outcomes());
            byte[] back = new byte[bytes.length];
            copy.buffer().get(back);
            require(new String(back, StandardCharsets.UTF_8).equals("one KV-cache chunk"), "load returned other bytes");
            return "stored and loaded " + bytes.length + " bytes as " + key.wireString() + " in " + hot.usage();
        }
    }

    private static void require(boolean condition, String failure) {
        if (!condition) {
            throw new IllegalStateException(failure);
        }
    }
}
