package io.kvtier.host;

import java.io.PrintWriter;

/** Progress lines for long runs: at most one per interval, so short runs print none. */
final class Progress {
    private static final long INTERVAL_NANOS = 1_000_000_000L;
    private final PrintWriter out;
    private long last = System.nanoTime();

    Progress(PrintWriter out) {
        this.out = out;
    }

    synchronized void update(String instance, String phase, int done, int total) {
        long now = System.nanoTime();
        if (now - last >= INTERVAL_NANOS) {
            last = now;
            out.printf("[%s] %s %d/%d batches%n", instance, phase, done, total);
        }
    }
}
