package io.kvtier.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Builds small plugin and library jars at test time, compiled against nothing but what is named. */
final class PluginJars {
    static final Path SPI_JAR = Artifacts.SPI_JAR;

    private PluginJars() {}

    /**
     * {@code contract-only/ContractOnlyProvider.java} as a plugin jar for adapter type
     * {@code type}, compiled against the contract jar alone, claiming the SPI version
     * {@code spiVersion} (a Java expression).
     */
    static Path contractOnly(Path dir, String type, String spiVersion) throws IOException {
        return plugin(dir, type, spiVersion, "\"none\"", List.of());
    }

    /**
     * The contract as it was at SPI revision 2 ({@code spi-revision-2/}), compiled into a jar, to
     * build plugins the way they were built for revision 2.
     */
    static Path spiRevision2(Path dir) throws IOException {
        Map<String, String> sources = new java.util.TreeMap<>();
        for (String name : List.of("AdapterContext", "AdapterSettings", "AdapterUsage", "BatchResult",
                "ConfigurationException", "KeyResult", "L1MemoryDesc", "L1Slice", "L2Adapter", "L2AdapterListener",
                "L2AdapterProvider", "ObjectKey", "SpiVersion")) {
            String path = "io/kvtier/spi/" + name + ".java";
            try (InputStream in = PluginJars.class.getResourceAsStream("/spi-revision-2/" + path)) {
                sources.put(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return jar(dir, "kvtier-spi-revision-2", sources, List.of(metricsCore()), null);
    }

    /** The contract-only plugin compiled against {@code spiJar} instead of today's contract. */
    static Path contractOnlyAgainst(Path dir, Path spiJar, String type) throws IOException {
        return plugin(dir, type, "SpiVersion.CURRENT", "\"none\"", List.of(), spiJar);
    }

    private static Path metricsCore() {
        return Stream.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(entry -> Path.of(entry).getFileName().toString().startsWith("metrics-core"))
                .map(Path::of).findFirst()
                .orElseThrow(() -> new IllegalStateException("metrics-core is not on the test class path"));
    }

    /** A plugin for {@code type} that bundles {@code library} and reports its version in {@code describe}. */
    static Path usingLibrary(Path dir, String type, Path library) throws IOException {
        return plugin(dir, type, "example.shared.Lib.version()", library);
    }

    /** A plugin for {@code type} whose {@code describe} reports {@code expression}, compiled against {@code library}. */
    static Path plugin(Path dir, String type, String expression, Path library) throws IOException {
        return plugin(dir, type, "SpiVersion.CURRENT", expression, List.of(library));
    }

    /** {@code example.shared.Lib}, whose {@code version()} returns {@code version}. */
    static Path library(Path dir, String version) throws IOException {
        String source = "package example.shared;\n\npublic final class Lib {\n"
                + "    public static String version() {\n        return \"" + version + "\";\n    }\n}\n";
        return jar(dir.resolve("lib-" + version), "lib-" + version, Map.of("example/shared/Lib.java", source), List.of(), null);
    }

    private static Path plugin(Path dir, String type, String spiVersion, String libraryVersion, List<Path> classpath)
            throws IOException {
        return plugin(dir, type, spiVersion, libraryVersion, classpath, SPI_JAR);
    }

    private static Path plugin(Path dir, String type, String spiVersion, String libraryVersion, List<Path> classpath,
                               Path spiJar) throws IOException {
        String pkg = "example." + type;
        String source;
        try (InputStream in = PluginJars.class.getResourceAsStream("/contract-only/ContractOnlyProvider.java")) {
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("example.contractonly", pkg)
                    .replace("TYPE_NAME", type)
                    .replace("SPI_VERSION_EXPRESSION", spiVersion)
                    .replace("LIBRARY_VERSION_EXPRESSION", libraryVersion);
        }
        List<Path> against = new ArrayList<>(List.of(spiJar));
        against.addAll(classpath);
        return jar(dir, type, Map.of("example/" + type + "/ContractOnlyProvider.java", source), against,
                pkg + ".ContractOnlyProvider");
    }

    /** Compiles {@code sources} (path → text) against {@code classpath} into {@code dir/name.jar}. */
    private static Path jar(Path dir, String name, Map<String, String> sources, List<Path> classpath, String provider)
            throws IOException {
        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        List<String> args = new ArrayList<>(List.of("--release", "17", "-d", classes.toString()));
        if (!classpath.isEmpty()) {
            args.addAll(List.of("-classpath", classpath.stream().map(Path::toString).collect(Collectors.joining(":"))));
        }
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = src.resolve(source.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac.run(null, null, null, args.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("javac failed for " + sources.keySet());
        }
        Path jar = dir.resolve(name + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
            if (provider != null) {
                out.putNextEntry(new JarEntry("META-INF/services/io.kvtier.spi.L2AdapterProvider"));
                out.write((provider + "\n").getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return jar;
    }
}
