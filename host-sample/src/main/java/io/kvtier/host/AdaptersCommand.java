package io.kvtier.host;

import io.kvtier.hostlib.AdapterReference;
import io.kvtier.hostlib.L2AdapterRegistry;
import java.io.PrintWriter;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "adapters", description = {
        "List the adapter types found on the class path, one per line: the type, a tab, its summary.",
        "With TYPE, print that type's reference.conf: every option with its meaning, default and range,",
        "then what the type says of its runtime here (e.g. a packaged native connector), as # comments."})
final class AdaptersCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "TYPE", description = "the type whose reference.conf to print")
    String type;

    @Override
    public Integer call() {
        L2AdapterRegistry registry = Main.registry(spec.commandLine().getErr());
        PrintWriter out = spec.commandLine().getOut();
        if (type == null) {
            for (String known : registry.types()) {
                out.println(known + "\t" + registry.reference(known).map(AdapterReference::summary).orElse(""));
            }
            return Main.OK;
        }
        registry.require(type);
        out.print(registry.reference(type).map(AdapterReference::text).orElseThrow(() -> new IllegalStateException(
                "adapter type '" + type + "' ships no " + AdapterReference.resourceOf(type))));
        // As comments, so that the whole output still reads as the HOCON it documents.
        new TreeMap<>(registry.runtime(type)).forEach((name, value) -> out.println("# runtime: " + name + " = " + value));
        out.flush();
        return Main.OK;
    }
}
