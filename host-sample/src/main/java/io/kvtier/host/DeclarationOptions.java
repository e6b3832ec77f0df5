package io.kvtier.host;

import io.kvtier.spi.ConfiguredAdapter;
import io.kvtier.spi.Declarations;
import io.kvtier.spi.L2AdapterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Where instances are declared: HOCON files, then --l2-adapter flags; the embedded default when neither is given. */
public final class DeclarationOptions {
    static final String EMBEDDED_DEFAULT = "kvtier.conf";

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "HOCON file with a kvtier.l2.adapters list (repeatable)")
    List<Path> files = new ArrayList<>();

    @Option(names = "--l2-adapter", paramLabel = "JSON",
            description = "one adapter as JSON, e.g. '{\"type\":\"memory\",\"capacity\":\"64 MiB\"}' (repeatable, after the files)")
    List<String> adapters = new ArrayList<>();

    public List<ConfiguredAdapter<?>> configure(L2AdapterRegistry registry) {
        List<Declarations.Entry> entries = new ArrayList<>();
        if (files.isEmpty() && adapters.isEmpty()) {
            entries.addAll(Declarations.fromHoconString(embeddedDefault(), EMBEDDED_DEFAULT + " (embedded)"));
        }
        for (Path file : files) {
            entries.addAll(Declarations.fromHoconFile(file));
        }
        entries.addAll(Declarations.fromJsonFlags(adapters));
        return Declarations.configure(registry, Declarations.resolve(entries));
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
