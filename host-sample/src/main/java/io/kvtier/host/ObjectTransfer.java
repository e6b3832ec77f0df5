package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.Instances;
import io.kvtier.hostlib.L1Arena;
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

    /** The largest object: one L1 slice, which a Java buffer indexes with an int. */
    static final long MAX_OBJECT_BYTES = Integer.MAX_VALUE - L1Arena.DEFAULT_ALIGNMENT;

    /**
     * Runs {@code action} with the selected instance and a fully allocated L1 slice of {@code size}
     * bytes; {@code sizeOrigin} (e.g. {@code --size}) names where the size came from.
     */
    int withObject(PrintWriter err, long size, String sizeOrigin, Action action) throws IOException {
        if (size <= 0 || size > MAX_OBJECT_BYTES) {
            throw new IllegalArgumentException(sizeOrigin + ": an object is 1 to " + MAX_OBJECT_BYTES + " bytes, got " + size);
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
