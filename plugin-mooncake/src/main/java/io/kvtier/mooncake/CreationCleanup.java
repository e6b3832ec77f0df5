package io.kvtier.mooncake;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Undo actions for the resources acquired while one instance is being wired. If any later step
 * fails, what was already acquired (native client, L1 registration, threads, gauges) is released
 * in reverse order, so a failed creation leaks nothing.
 */
final class CreationCleanup {
    private static final Logger LOG = Logger.getLogger(CreationCleanup.class.getName());
    private final Deque<Runnable> undo = new ArrayDeque<>();

    synchronized void onFailure(Runnable action) {
        undo.push(action);
    }

    /** Runs every undo action, newest first; one failing does not stop the others. */
    synchronized void runAll() {
        while (!undo.isEmpty()) {
            try {
                undo.pop().run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "cleanup after a failed mooncake_store creation failed", e);
            }
        }
    }
}
