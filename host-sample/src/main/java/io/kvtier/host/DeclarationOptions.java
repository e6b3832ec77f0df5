package io.kvtier.host;

import io.kvtier.hostlib.ConfiguredAdapter;
import io.kvtier.hostlib.Declarations;
import io.kvtier.hostlib.L2AdapterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Where instances are declared: HOCON files, then --l2-adapter flags; the embedded default when neither is given. */
public final class DeclarationOptions {
    static final String EMBEDDED_DEFAULT = "kvtier.conf";

    /** The command this mixin belongs to, whose error stream takes the warnings. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "HOCON file with a kvtier.l2.adapters list (repeatable)")
    List<Path> files = new ArrayList<>();

    @Option(names = "--l2-adapter", paramLabel = "JSON",
            description = "one adapter as JSON, e.g. '{\"type\":\"memory\",\"capacity\":\"64 MiB\"}' (repeatable, after the files)")
    List<String> adapters = new ArrayList<>();

    public List<ConfiguredAdapter<?>> configure(L2AdapterRegistry registry) {
        List<ConfiguredAdapter<?>> configured = files.isEmpty() && adapters.isEmpty()
                ? Declarations.configure(registry, Declarations.resolve(
                        Declarations.fromHoconString(embeddedDefault(), EMBEDDED_DEFAULT + " (embedded)")))
                : Declarations.load(registry, files, adapters);
        configured.forEach(adapter -> adapter.warnings()
                .forEach(warning -> mixee.commandLine().getErr().println(ErrorLine.of("kvtier: warning: " + warning))));
        return configured;
    }

    private static String embeddedDefault() {
        try (InputStream in = DeclarationOptions.class.getClassLoader().getResourceAsStream(EMBEDDED_DEFAULT)) {
            if (in == null) {
                throw new IllegalStateException("the host jar lacks its embedded " + EMBEDDED_DEFAULT);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
