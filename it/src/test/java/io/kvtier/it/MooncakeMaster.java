package io.kvtier.it;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A Mooncake master for the real suite: the one named by MOONCAKE_MASTER, or one started here on
 * free loopback ports from {@code mooncake_master} on PATH or under MOONCAKE_HOME/bin, and stopped
 * by its PID.
 */
final class MooncakeMaster implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final String address;
    private final Process process;

    private MooncakeMaster(String address, Process process) {
        this.address = address;
        this.process = process;
    }

    /** Why no master can be had here, or empty when {@link #start} will work. */
    static Optional<String> unavailableReason() {
        if (System.getenv("MOONCAKE_MASTER") != null || binary().isPresent()) {
            return Optional.empty();
        }
        return Optional.of("no Mooncake master: set MOONCAKE_MASTER=host:port, or put mooncake_master on PATH, "
                + "or set MOONCAKE_HOME");
    }

    static Optional<Path> binary() {
        String home = System.getenv("MOONCAKE_HOME");
        if (home != null && Files.isExecutable(Path.of(home, "bin", "mooncake_master"))) {
            return Optional.of(Path.of(home, "bin", "mooncake_master"));
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "mooncake_master");
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    static MooncakeMaster start(Path logDir) throws IOException, InterruptedException {
        String given = System.getenv("MOONCAKE_MASTER");
        if (given != null) {
            return new MooncakeMaster(given, null);
        }
        Path binary = binary().orElseThrow();
        int port = freePort();
        int metricsPort = freePort();
        Process process = new ProcessBuilder(binary.toString(), "--rpc_address=127.0.0.1", "--port=" + port,
                "--metrics_host=127.0.0.1", "--metrics_port=" + metricsPort)
                .redirectErrorStream(true)
                .redirectOutput(logDir.resolve("mooncake_master.log").toFile())
                .start();
        MooncakeMaster master = new MooncakeMaster("127.0.0.1:" + port, process);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!accepts(port)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                master.close();
                throw new IllegalStateException("mooncake_master did not listen on 127.0.0.1:" + port + "; see "
                        + logDir.resolve("mooncake_master.log"));
            }
            process.waitFor(100, TimeUnit.MILLISECONDS);
        }
        return master;
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    String address() {
        return address;
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
