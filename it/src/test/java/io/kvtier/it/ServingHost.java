package io.kvtier.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A {@code kvtier serve} process: started, awaited until it says it is serving, then stopped by a signal. */
final class ServingHost implements AutoCloseable {
    private static final long TIMEOUT_SECONDS = 120;

    private final Process process;
    private final BufferedReader out;
    private final CompletableFuture<String> err;

    private ServingHost(Process process) {
        this.process = process;
        this.out = process.inputReader(StandardCharsets.UTF_8);
        this.err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(stderr unreadable: " + e + ")";
            }
        });
    }

    static ServingHost start(HostProcess host, String... args) throws IOException {
        String[] command = new String[args.length + 1];
        command[0] = "serve";
        System.arraycopy(args, 0, command, 1, args.length);
        return new ServingHost(host.start(command));
    }

    /** The first line on stdout; null if the process ended without one. */
    String firstLine() throws InterruptedException, ExecutionException, TimeoutException {
        return nextLine();
    }

    private String nextLine() throws InterruptedException, ExecutionException, TimeoutException {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** The base URI of the HTTP endpoint, from the line after the first, 'http HOST:PORT'. */
    URI http() throws InterruptedException, ExecutionException, TimeoutException {
        String line = nextLine();
        if (line == null || !line.startsWith("http ")) {
            throw new IllegalStateException("the line after 'serving ...' is '" + line + "', not 'http HOST:PORT'");
        }
        return URI.create("http://" + line.substring("http ".length()));
    }

    /** What the process wrote to stderr; it must have ended. */
    String err() throws InterruptedException, ExecutionException, TimeoutException {
        return err.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Sends {@code signal} (TERM, INT) and waits for the exit code; what stdout held after the first line is in {@code rest}. */
    Stopped stop(String signal) throws IOException, InterruptedException, ExecutionException, TimeoutException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("kvtier serve did not stop within " + TIMEOUT_SECONDS + " s of SIG" + signal);
        }
        return new Stopped(process.exitValue(), out.lines().toList(), err());
    }

    record Stopped(int exit, List<String> rest, String err) {}

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
