package io.kvtier.it;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the reactor put what these tests run: the pom hands each dependency's file to the tests
 * as a system property (maven-dependency-plugin's properties goal, see it/pom.xml), and the build
 * outputs that are no artifact (the CLI's lib/ and tarball, the connector's native build) are
 * found next to the jar of the module that makes them.
 *
 * <p>Without Maven (tools/cluster/cluster scenario runs these classes with java alone) the
 * properties are absent, and each file is taken where the source tree's build leaves it.
 */
final class Artifacts {
    static final String VERSION = System.getProperty("kvtier.version", "0.1.0-SNAPSHOT");
    /** The source tree (HostProcess.ROOT, computed here too: HostProcess's constants use these). */
    private static final Path ROOT = Path.of(System.getProperty("kvtier.root", "..")).toAbsolutePath().normalize();

    /** The contract jar, kvtier-spi. */
    static final Path SPI_JAR = artifact("kvtier.spi.jar", "spi/target", "kvtier-spi-" + VERSION + ".jar");
    /** The mooncake_store plugin jar, as shaded by its module. */
    static final Path PLUGIN_JAR = artifact("kvtier.plugin-mooncake.jar", "plugin-mooncake/target",
            "kvtier-plugin-mooncake-" + VERSION + ".jar");
    /** The CLI's jar; its module's lib/ and distribution lie next to it. */
    static final Path CLI_JAR = artifact("kvtier.cli.jar", "host-sample/target", "kvtier-cli.jar");
    /** The sample plugin project's jar (examples/sample-plugin). */
    static final Path SAMPLE_PLUGIN_JAR = artifact("kvtier.sample-plugin.jar", "examples/sample-plugin/target",
            "kvtier-sample-plugin-1.0.0-SNAPSHOT.jar");

    /** The CLI's runtime libraries, copied by its module at package. */
    static final Path CLI_LIB = CLI_JAR.resolveSibling("lib");
    /** The distribution, kvtier-<version>.tar.gz. */
    static final Path TARBALL = CLI_JAR.resolveSibling("kvtier-" + VERSION + ".tar.gz");

    /** The connector's CMake build directory, in the plugin module's target. */
    static final Path NATIVE_BUILD = PLUGIN_JAR.resolveSibling("native-build");
    /** The raw baseline over Mooncake's C client (native/bench/kvtier_raw_bench.c). */
    static final Path RAW_BENCH = NATIVE_BUILD.resolve("kvtier_raw_bench");
    /** The object checksum bench (native/bench/checksum_bench.cpp). */
    static final Path CHECKSUM_BENCH = NATIVE_BUILD.resolve("kvtier_checksum_bench");
    /** The connector built against the in-memory double instead of Mooncake. */
    static final Path TEST_DOUBLE = PLUGIN_JAR.resolveSibling("native-testdouble/libkvtier_mooncake_testdouble.so");

    private Artifacts() {}

    /**
     * The file of a dependency as the reactor resolved it. A reactor module that was not packaged
     * in this run (mvn test) resolves to its classes directory: its jar of the last package lies in
     * the directory above. A jar from the local repository (the it module built without -am) has no
     * build outputs next to it: then the source tree's build directory is used.
     */
    private static Path artifact(String property, String treeDir, String fileName) {
        String resolved = System.getProperty(property);
        Path tree = ROOT.resolve(treeDir).resolve(fileName);
        if (resolved == null || resolved.isBlank() || resolved.startsWith("${")) {
            return tree;
        }
        Path file = Path.of(resolved).toAbsolutePath().normalize();
        if (Files.isDirectory(file)) {
            return file.getParent().resolve(fileName);
        }
        return file.getParent().getFileName().toString().equals("target") ? file : tree;
    }
}
