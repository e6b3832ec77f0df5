package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native code kvtier ships, the connector in the plugin jar and bin/mooncake_master in the
 * distribution, needs glibc alone (docs/connector.md, "Linking"), read from the ELF files with
 * {@code readelf}.
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealNativeArtifactsTest {
    /** glibc's own libraries, and libgcc_s; nothing else may be NEEDED. */
    private static final List<String> GLIBC_LIBRARIES = List.of("libc.so.6", "libm.so.6", "libpthread.so.0",
            "libdl.so.2", "librt.so.1", "ld-linux-x86-64.so.2", "libgcc_s.so.1");
    /** The newest glibc symbol version they may need: they run on glibc 2.36 and later (README, docs/mooncake.md). */
    private static final List<Integer> GLIBC_FLOOR = List.of(2, 36);
    private static final Pattern GLIBC_VERSION = Pattern.compile("Name: GLIBC_([0-9.]+)");
    private static final long MAX_PLUGIN_JAR_BYTES = 25L << 20;

    @Test
    void theConnectorInThePluginJarNeedsGlibcAloneAndShipsWithoutItsSymbols(@TempDir Path dir) throws Exception {
        Path connector = dir.resolve("libkvtier_mooncake.so");
        try (JarFile jar = new JarFile(HostProcess.PLUGIN_JAR.toFile());
             InputStream in = jar.getInputStream(jar.getEntry(RealMooncakeAvailable.REAL_CONNECTOR))) {
            Files.copy(in, connector);
        }
        assertNeedsGlibcAlone(connector);
        String sections = readelf(connector, "-S", "-W");
        assertThat(sections).as("stripped: the symbols stay in the build directory")
                .doesNotContain(".debug_info", ".symtab")
                .contains(".gnu_debuglink");
        assertThat(readelf(connector, "-n")).as("a build-id, by which debuggers find the symbols")
                .contains("Build ID:");
    }

    @Test
    void thePluginJarIsAtMost25MiB() throws IOException {
        assertThat(Files.size(HostProcess.PLUGIN_JAR)).as(HostProcess.PLUGIN_JAR.toString())
                .isLessThanOrEqualTo(MAX_PLUGIN_JAR_BYTES);
    }

    @Test
    void theDistributionsMasterNeedsGlibcAlone(@TempDir Path dir) throws Exception {
        HostProcess.unpack(DistributionTest.TARBALL, dir);
        try (var unpacked = Files.list(dir)) {
            Path master = unpacked.findFirst().orElseThrow().resolve("bin/mooncake_master");
            assertThat(master).isExecutable();
            assertNeedsGlibcAlone(master);
        }
    }

    private static void assertNeedsGlibcAlone(Path elf) throws IOException, InterruptedException {
        String dynamic = readelf(elf, "-d", "-W");
        List<String> needed = dynamic.lines()
                .filter(line -> line.contains("(NEEDED)"))
                .map(line -> line.substring(line.indexOf('[') + 1, line.lastIndexOf(']')))
                .toList();
        assertThat(needed).as(elf + " NEEDED").isNotEmpty().isSubsetOf(GLIBC_LIBRARIES);
        assertThat(dynamic).as(elf + " has no run path").doesNotContain("(RPATH)", "(RUNPATH)");

        Matcher versions = GLIBC_VERSION.matcher(readelf(elf, "-V", "-W"));
        List<Integer> newest = List.of(0);
        while (versions.find()) {
            List<Integer> version = Arrays.stream(versions.group(1).split("\\.")).map(Integer::valueOf).toList();
            newest = VERSION_ORDER.compare(version, newest) > 0 ? version : newest;
        }
        assertThat(VERSION_ORDER.compare(newest, GLIBC_FLOOR)).as(elf + " needs GLIBC_" + newest + ", newer than the "
                + "documented floor GLIBC_" + GLIBC_FLOOR).isLessThanOrEqualTo(0);
    }

    private static final Comparator<List<Integer>> VERSION_ORDER = (a, b) -> {
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            int c = Integer.compare(i < a.size() ? a.get(i) : 0, i < b.size() ? b.get(i) : 0);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    };

    private static String readelf(Path elf, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("readelf"));
        command.addAll(List.of(options));
        command.add(elf.toString());
        return run(command);
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        assertThat(process.exitValue()).as(String.join(" ", command)).isZero();
        return new String(out, StandardCharsets.UTF_8);
    }
}
