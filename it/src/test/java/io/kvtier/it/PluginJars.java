package io.kvtier.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Builds small plugin jars at test time, compiled against nothing but the contract jar. */
final class PluginJars {
    static final Path SPI_JAR = HostProcess.ROOT.resolve("spi/target/kvtier-spi-"
            + System.getProperty("kvtier.version", "0.1.0-SNAPSHOT") + ".jar");

    private PluginJars() {}

    /**
     * The provider of {@code contract-only/ContractOnlyProvider.java} as a jar under {@code dir}, for
     * adapter type {@code type}, claiming the SPI version {@code spiVersion} (a Java expression).
     */
    static Path contractOnly(Path dir, String type, String spiVersion) throws IOException {
        String pkg = "example." + type;
        Path src = dir.resolve("src/example/" + type + "/ContractOnlyProvider.java");
        Path classes = dir.resolve("classes");
        Files.createDirectories(src.getParent());
        Files.createDirectories(classes);
        try (InputStream in = PluginJars.class.getResourceAsStream("/contract-only/ContractOnlyProvider.java")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("example.contractonly", pkg)
                    .replace("TYPE_NAME", type)
                    .replace("SPI_VERSION_EXPRESSION", spiVersion);
            Files.writeString(src, text);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "--release", "17", "-classpath", SPI_JAR.toString(),
                "-d", classes.toString(), src.toString());
        if (rc != 0) {
            throw new IllegalStateException("javac failed (" + rc + ") for " + src);
        }
        Path jar = dir.resolve(type + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry("META-INF/services/io.kvtier.spi.L2AdapterProvider"));
            out.write((pkg + ".ContractOnlyProvider\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}
