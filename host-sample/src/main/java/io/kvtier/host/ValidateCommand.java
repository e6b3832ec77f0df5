package io.kvtier.host;

import io.kvtier.hostlib.ConfigValues;
import io.kvtier.hostlib.ConfiguredAdapter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "validate", description = "Parse the declarations and print each instance as one JSON line.")
final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    DeclarationOptions declarations;

    @Override
    public Integer call() {
        for (ConfiguredAdapter<?> adapter : declarations.configure(Main.registry(spec.commandLine().getErr()))) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("name", adapter.name());
            line.put("type", adapter.type());
            line.put("config", adapter.describe());
            spec.commandLine().getOut().println(ConfigValues.toJson(line));
        }
        return Main.OK;
    }
}
