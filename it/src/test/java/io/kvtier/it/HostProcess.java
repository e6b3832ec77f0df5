package io.kvtier.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A kvtier host laid out as a user installs it: bin/kvtier, the host jar and its libraries, and
 * a plugins/ folder holding only what a test drops in. Each command runs in a fresh JVM.
 */
final class HostProcess {
    static final Path ROOT = Path.of(System.getProperty("kvtier.root", "..")).toAbsolutePath().normalize();
    static final Path PLUGIN_JAR = Artifacts.PLUGIN_JAR;
    private static final long TIMEOUT_SECONDS = 120;

    record Result(int exit, String out, String err) {}

    private final Path home;
    /** Where commands run: the source tree for installed hosts, so that conf/ paths resolve there. */
    private final Path workingDir;
    private final Map<String, String> env = new HashMap<>();

    private HostProcess(Path home, Path workingDir) {
        this.home = home;
        this.workingDir = workingDir;
        env.put("MC_TCP_BIND_ADDRESS", "127.0.0.1");
    }

    /** The distribution unpacked under {@code dir}; commands run in the unpacked directory. */
    static HostProcess unpack(Path tarball, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Process tar = new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", dir.toString()).inheritIO().start();
        if (!tar.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || tar.exitValue() != 0) {
            throw new IllegalStateException("cannot unpack " + tarball);
        }
        try (Stream<Path> unpacked = Files.list(dir)) {
            Path home = unpacked.filter(Files::isDirectory).findFirst().orElseThrow();
            return new HostProcess(home, home);
        }
    }

    /** Lays out a host under {@code dir}, with {@code plugins} copied into its plugins/ folder. */
    static HostProcess install(Path dir, Path... plugins) throws IOException {
        Files.createDirectories(dir.resolve("bin"));
        Files.createDirectories(dir.resolve("target/lib"));
        Files.createDirectories(dir.resolve("plugins"));
        Path script = Files.copy(ROOT.resolve("host-sample/bin/kvtier"), dir.resolve("bin/kvtier"));
        script.toFile().setExecutable(true);
        Files.copy(Artifacts.CLI_JAR, dir.resolve("target/kvtier-cli.jar"));
        try (Stream<Path> libs = Files.list(Artifacts.CLI_LIB)) {
            for (Path lib : libs.toList()) {
                Files.copy(lib, dir.resolve("target/lib").resolve(lib.getFileName()));
            }
        }
        for (Path plugin : plugins) {
            Files.copy(plugin, dir.resolve("plugins").resolve(plugin.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        return new HostProcess(dir, ROOT);
    }

    /** A host with the Mooncake plugin, using the same connector as this JVM when one is named. */
    static HostProcess installWithMooncakePlugin(Path dir) throws IOException {
        HostProcess host = install(dir, PLUGIN_JAR);
        String library = System.getenv("KVTIER_MOONCAKE_LIBRARY");
        return library == null ? host : host.withEnv("KVTIER_MOONCAKE_LIBRARY", library);
    }

    /** Puts {@code jars} into {@code plugins/<name>/}: an isolated plugin with a class loader of its own. */
    HostProcess withIsolatedPlugin(String name, Path... jars) throws IOException {
        Path dir = Files.createDirectories(home.resolve("plugins").resolve(name));
        for (Path jar : jars) {
            Files.copy(jar, dir.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        return this;
    }

    HostProcess withEnv(String name, String value) {
        env.put(name, value);
        return this;
    }

    Result kvtier(String... args) throws IOException, InterruptedException {
        ProcessBuilder builder = builder(args);
        Path out = Files.createTempFile(home, "out", ".txt");
        Path err = Files.createTempFile(home, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("kvtier " + String.join(" ", args) + " did not finish in "
                    + TIMEOUT_SECONDS + " s");
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Starts a command that the caller talks to while it runs (stdin, stdout and stderr are pipes). */
    Process start(String... args) throws IOException {
        return builder(args).start();
    }

    private ProcessBuilder builder(String... args) {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/kvtier").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDir.toFile());
        builder.environment().remove("KVTIER_PLUGINS");
        builder.environment().remove("KVTIER_MOONCAKE_LIBRARY");
        builder.environment().putAll(env);
        return builder;
    }
}
