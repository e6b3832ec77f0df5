package io.kvtier.host;

import io.kvtier.hostlib.L2AdapterRegistry;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "adapters", description = "List the adapter types found on the class path, one per line.")
final class AdaptersCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        L2AdapterRegistry registry = Main.registry(spec.commandLine().getErr());
        for (String type : registry.types()) {
            spec.commandLine().getOut().println(type + "\t" + registry.require(type).help().lines().findFirst().orElse(""));
        }
        return Main.OK;
    }
}
