package io.kvtier.host;

import io.kvtier.hostlib.ConfigValues;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "get", description = "Load one object of a known size into a file, through L1. Exits 1 if not found.")
final class GetCommand extends ObjectTransfer implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--size", required = true, paramLabel = "BYTES", description = "the object's size")
    String size;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "where to write the object")
    Path out;

    @Override
    public Integer call() throws IOException {
        long bytes = ConfigValues.bytes(size, "--size");
        return withObject(spec.commandLine().getErr(), bytes, "--size " + size, (instance, key, slice) -> {
            BatchResult result = await(instance, instance.adapter().load(List.of(key), List.of(slice)));
            if (result.get(0) == KeyResult.MISSING) {
                spec.commandLine().getErr().println("kvtier: not found: " + key + " in " + instance.name());
                return Main.FAILED;
            }
            if (result.get(0) != KeyResult.OK) {
                spec.commandLine().getErr().println("kvtier: " + instance.name() + ": load of " + key + " failed: "
                        + result.firstError());
                return Main.FAILED;
            }
            try (FileChannel file = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                file.write(slice.buffer().duplicate().clear());
            }
            spec.commandLine().getOut().printf("loaded %s (%d bytes) from %s into %s%n", key, bytes, instance.name(), out);
            return Main.OK;
        });
    }
}
