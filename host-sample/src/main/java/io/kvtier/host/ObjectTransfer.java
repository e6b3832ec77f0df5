package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What put and get share: the declarations, the instance, the key, and one object moved through L1. */
abstract class ObjectTransfer {
    @Mixin
    DeclarationOptions declarations;

    @Mixin
    KeyOptions keyOptions;

    @Option(names = "--instance", paramLabel = "NAME", description = "instance to use (default: the only one declared)")
    String instance;

    interface Action {
        int run(Instances.Instance instance, ObjectKey key, L1Slice slice) throws IOException;
    }

    /** Runs {@code action} with the selected instance and a fully allocated L1 slice of {@code size} bytes. */
    int withObject(PrintWriter err, long size, Action action) throws IOException {
        if (size <= 0 || size > Integer.MAX_VALUE - L1Arena.DEFAULT_ALIGNMENT) {
            throw new IllegalArgumentException("object size must be between 1 byte and 2 GiB, got " + size);
        }
        ObjectKey key = keyOptions.key();
        var configured = declarations.configure(Main.registry(err));
        try (L1Arena arena = L1Arena.allocate(size, L1Arena.DEFAULT_ALIGNMENT, true);
             Instances instances = Instances.create(configured, arena, new MetricRegistry())) {
            return action.run(instances.select(instance), key, arena.allocate((int) size));
        }
    }

    static BatchResult await(Instances.Instance instance, CompletableFuture<BatchResult> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw new IllegalStateException(instance.name() + ": " + e.getCause().getMessage(), e.getCause());
        }
    }
}
