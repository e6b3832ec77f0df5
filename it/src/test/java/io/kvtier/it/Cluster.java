package io.kvtier.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hosts in network namespaces on a bridge of their own, made and faulted by the script
 * {@code tools/cluster/cluster}, which users and the bench run too. The cluster is named after
 * this JVM, which the script records as its owner, so a later run removes what a crashed one left
 * ({@code cluster gc}); {@link #close()} removes every host, link and process.
 */
final class Cluster implements AutoCloseable {
    static final Path SCRIPT = HostProcess.ROOT.resolve("tools/cluster/cluster");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static final AtomicInteger CLUSTERS = new AtomicInteger();

    /** What a one-way partition drops: what the host receives, or what it sends. */
    enum Direction { IN, OUT }

    private final String name;
    private final int hosts;
    private final Path logs;
    private final List<Process> processes = new ArrayList<>();

    private Cluster(String name, int hosts, Path logs) {
        this.name = name;
        this.hosts = hosts;
        this.logs = logs;
    }

    /** Why no cluster can be made here, or empty. */
    static Optional<String> unavailableReason() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("the cluster harness needs root (network namespaces, nftables); running as "
                    + System.getProperty("user.name"));
        }
        for (String tool : List.of("ip", "nft", "tc")) {
            if (!onPath(tool)) {
                return Optional.of("the cluster harness needs '" + tool + "' (apt-get install iproute2 nftables)");
            }
        }
        return Optional.empty();
    }

    private static boolean onPath(String tool) {
        for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** Removes the leftovers of crashed runs, then makes hosts 0 to {@code hosts - 1}. */
    static Cluster up(int hosts, Path logs) throws IOException, InterruptedException {
        run("gc");
        String name = "j" + Long.toString(ProcessHandle.current().pid(), 36) + Integer.toString(CLUSTERS.incrementAndGet(), 36);
        Cluster cluster = new Cluster(name, hosts, logs);
        try {
            run("up", name, Integer.toString(hosts), Long.toString(ProcessHandle.current().pid()));
        } catch (RuntimeException | IOException | InterruptedException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    String name() {
        return name;
    }

    String address(int host) {
        checkHost(host);
        return "198.18.0." + (10 + host);
    }

    /** Starts mooncake_master on the host, bound to its address; returns ADDRESS:PORT once it listens. */
    String startMaster(int host, String... flags) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("master", name, Integer.toString(host)));
        args.addAll(List.of(flags));
        return run(args.toArray(String[]::new)).trim();
    }

    /** Starts redis-server on the host; returns {@code redis://ADDRESS:PORT} once it answers. */
    String startRedis(int host) throws IOException, InterruptedException {
        return run("redis", name, Integer.toString(checkHost(host))).trim();
    }

    /** The HA state of the master on the host: standby, leader_warmup, serving, ...; empty if none answers. */
    String haStatus(int host) throws InterruptedException {
        try {
            return run("ha-status", name, Integer.toString(checkHost(host))).trim();
        } catch (IOException | IllegalStateException e) {
            return "";
        }
    }

    /**
     * Starts {@code command} on the host, with MC_TCP_BIND_ADDRESS set to the host's address and
     * stderr to {@code <logs>/<log>}; stdin and stdout are the caller's pipes. close() kills it.
     */
    Process start(int host, String log, List<String> command) throws IOException {
        return start(host, command, ProcessBuilder.Redirect.to(logs.resolve(log).toFile()));
    }

    /** As {@link #start(int, String, List)}, with stderr a pipe too. */
    Process startPiped(int host, List<String> command) throws IOException {
        return start(host, command, ProcessBuilder.Redirect.PIPE);
    }

    private Process start(int host, List<String> command, ProcessBuilder.Redirect stderr) throws IOException {
        checkHost(host);
        List<String> args = new ArrayList<>(List.of(SCRIPT.toString(), "exec", name, Integer.toString(host)));
        args.addAll(command);
        Process process = new ProcessBuilder(args).redirectError(stderr).start();
        synchronized (processes) {
            processes.add(process);
        }
        return process;
    }

    void partition(int host) throws IOException, InterruptedException {
        run("partition", name, Integer.toString(checkHost(host)));
    }

    void oneway(int host, Direction direction) throws IOException, InterruptedException {
        run("oneway", name, Integer.toString(checkHost(host)), direction.name().toLowerCase());
    }

    /** Cuts the host now, then heals and cuts it in turn every {@code period}, until {@link #heal}. */
    void flap(int host, Duration period) throws IOException, InterruptedException {
        run("flap", name, Integer.toString(checkHost(host)), Double.toString(period.toMillis() / 1000.0));
    }

    void heal(int host) throws IOException, InterruptedException {
        run("heal", name, Integer.toString(checkHost(host)));
    }

    /** Limits the host's link each way, e.g. {@code 100mbit}; {@code off} lifts it. */
    void limit(int host, String rate) throws IOException, InterruptedException {
        run("limit", name, Integer.toString(checkHost(host)), rate);
    }

    /** Sends KILL, STOP or CONT to every process on the host. */
    void signal(int host, String signal) throws IOException, InterruptedException {
        run("signal", name, Integer.toString(checkHost(host)), signal);
    }

    /** Runs a command on the host to its end; returns its exit status. */
    int exec(int host, String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(SCRIPT.toString(), "exec", name, Integer.toString(checkHost(host))));
        args.addAll(List.of(command));
        Process process = new ProcessBuilder(args).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException(String.join(" ", command) + " on host " + host + " did not end in " + COMMAND_TIMEOUT);
        }
        return process.exitValue();
    }

    private int checkHost(int host) {
        if (host < 0 || host >= hosts) {
            throw new IllegalArgumentException("host " + host + " is not one of 0 to " + (hosts - 1) + " of cluster " + name);
        }
        return host;
    }

    /** Kills every process on the cluster's hosts and removes them, their links and the bridge. */
    @Override
    public void close() throws IOException, InterruptedException {
        keepMasterLogs();
        run("down", name);
        synchronized (processes) {
            for (Process process : processes) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** The master's log lives in the script's state, which `down` removes: copied beside the others first. */
    private void keepMasterLogs() throws IOException {
        Path state = Path.of("/tmp/kvtier-cluster", name);
        if (!Files.isDirectory(state)) {
            return;
        }
        try (var files = Files.newDirectoryStream(state, "master-h*.log")) {
            for (Path log : files) {
                Files.copy(log, logs.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** Runs the script; its stdout, or an exception with its stderr when it fails. */
    private static String run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("cluster " + String.join(" ", args) + " did not end in " + COMMAND_TIMEOUT);
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (process.exitValue() != 0) {
            throw new IllegalStateException("cluster " + String.join(" ", args) + " failed (exit " + process.exitValue()
                    + "): " + err);
        }
        return out;
    }
}
