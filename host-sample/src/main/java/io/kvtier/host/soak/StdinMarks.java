package io.kvtier.host.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.util.function.Consumer;

/**
 * Fault marks from an external harness, one per line: {@code fault} when it starts inducing a
 * fault, {@code recovered} when that fault is over, {@code seal} before a fault that must lose
 * nothing of what is stored (see {@link Soak#seal}), {@code stop} to end the soak early with its
 * report (a process with a Mooncake client cannot be told by a signal: Mooncake's own signal
 * thread ends it before the report). Other lines are reported and ignored.
 */
final class StdinMarks {
    private StdinMarks() {}

    /**
     * Reads {@code in} to its end, calling {@code mark} with true for a fault and false for a
     * recovery, {@code seal} for a seal and {@code stop} for a stop.
     */
    static void read(Reader in, Consumer<Boolean> mark, Runnable seal, Runnable stop, PrintWriter err) {
        try (BufferedReader lines = new BufferedReader(in)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                switch (line.trim()) {
                    case "fault" -> mark.accept(true);
                    case "recovered" -> mark.accept(false);
                    case "seal" -> seal.run();
                    case "stop" -> stop.run();
                    case "" -> { }
                    default -> err.println("kvtier: warning: ignored stdin line '" + line.trim()
                            + "' (expected 'fault', 'recovered', 'seal' or 'stop')");
                }
            }
        } catch (IOException e) {
            err.println("kvtier: warning: stopped reading marks from stdin: " + e.getMessage());
        }
    }

    /** On a daemon thread, so that a harness that never closes stdin does not keep the process alive. */
    static void readInBackground(Reader in, Consumer<Boolean> mark, Runnable seal, Runnable stop, PrintWriter err) {
        Thread reader = new Thread(() -> read(in, mark, seal, stop, err), "kvtier-soak-marks");
        reader.setDaemon(true);
        reader.start();
    }
}
