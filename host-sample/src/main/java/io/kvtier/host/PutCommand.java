package io.kvtier.host;

import io.kvtier.hostlib.InputFiles;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "put", description = "Store one object from a file, through L1, under the host's wire key.")
final class PutCommand extends ObjectTransfer implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--in", required = true, paramLabel = "FILE", description = "the object's bytes")
    Path in;

    @Override
    public Integer call() throws IOException {
        String origin = "--in " + in;
        // Checked before reading: a file too large for one object must not be read whole first.
        InputFiles.requireRegular(in, origin, MAX_OBJECT_BYTES);
        byte[] bytes = Files.readAllBytes(in);
        return withObject(spec.commandLine().getErr(), bytes.length, origin, (instance, key, slice) -> {
            slice.buffer().duplicate().clear().put(bytes);
            BatchResult result = await(instance, instance.adapter().store(List.of(key), List.of(slice)));
            if (result.get(0) != KeyResult.OK) {
                spec.commandLine().getErr().println("kvtier: " + instance.name() + ": store of " + key + " failed: "
                        + result.firstError());
                return Main.FAILED;
            }
            spec.commandLine().getOut().printf("stored %s (%d bytes) in %s%n", key, bytes.length, instance.name());
            return Main.OK;
        });
    }
}
