package io.kvtier.it;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    /** Its HTTP admin server's port (metrics, /query_key), for a master of our own; 0 otherwise. */
    private final int adminPort;
    private final List<String> command;
    private final Path log;
    private Process process;

    private MooncakeMaster(String address, int adminPort, List<String> command, Path log) {
        this.address = address;
        this.adminPort = adminPort;
        this.command = command;
        this.log = log;
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

    /** The master named by MOONCAKE_MASTER, else one of our own. */
    static MooncakeMaster start(Path logDir) throws IOException, InterruptedException {
        String given = System.getenv("MOONCAKE_MASTER");
        if (given != null) {
            return new MooncakeMaster(given, 0, null, null);
        }
        return startOwn(logDir);
    }

    /** A master of our own, which a fault test may kill, restart and stop; {@code flags} are added. */
    static MooncakeMaster startOwn(Path logDir, String... flags) throws IOException, InterruptedException {
        Path binary = binary().orElseThrow(() -> new IllegalStateException(unavailableReason().orElse("no mooncake_master")));
        int port = freePort();
        int adminPort = freePort();
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--rpc_address=127.0.0.1", "--rpc_port=" + port,
                "--metrics_host=127.0.0.1", "--metrics_port=" + adminPort));
        command.addAll(List.of(flags));
        MooncakeMaster master = new MooncakeMaster("127.0.0.1:" + port, adminPort, command,
                logDir.resolve("mooncake_master.log"));
        master.launch();
        return master;
    }

    private void launch() throws IOException, InterruptedException {
        int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!accepts(port)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                close();
                throw new IllegalStateException("mooncake_master did not listen on " + address + "; see " + log);
            }
            process.waitFor(100, TimeUnit.MILLISECONDS);
        }
    }

    /** SIGKILL: the master loses all its metadata, as a crash does. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** A new master on the same address, after {@link #kill()}. */
    void restart() throws IOException, InterruptedException {
        if (process.isAlive()) {
            throw new IllegalStateException("the master is still running");
        }
        launch();
    }

    /** SIGSTOP: the master keeps its connections but answers nothing until {@link #resume()}. */
    void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The master's admin server, http://127.0.0.1:PORT, of a master started by {@link #startOwn}. */
    String adminUrl() {
        if (adminPort == 0) {
            throw new IllegalStateException("not a master of our own: its admin port is unknown");
        }
        return "http://127.0.0.1:" + adminPort;
    }

    String address() {
        return address;
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            try {
                resume(); // a stopped master cannot handle SIGTERM
            } catch (IOException | IllegalStateException e) {
                // it is killed below all the same
            }
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
