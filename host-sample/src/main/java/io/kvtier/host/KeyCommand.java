package io.kvtier.host;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "key", description = "Print the wire key (as stored in Mooncake) of one object.")
final class KeyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    KeyOptions key;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(key.key().wireString());
        return Main.OK;
    }
}
