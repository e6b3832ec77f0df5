package io.kvtier.mooncake.lanes;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Lowers the CPU priority of the calling thread, through libc's {@code nice}: on Linux a thread's
 * nice value is its own, and any thread may raise it without privileges. Java offers no way
 * ({@link Thread#setPriority} is ignored on Linux).
 */
public final class ThreadPriority {
    private static final Logger LOG = Logger.getLogger(ThreadPriority.class.getName());

    /** libc, as jnr-ffi binds it. */
    public interface LibC {
        /** Adds {@code increment} to the calling thread's nice value (at most 19); -1 on failure. */
        int nice(int increment);
    }

    private static volatile LibC libc;
    private static volatile boolean warned;

    private ThreadPriority() {
    }

    /**
     * Adds {@code by} to the calling thread's nice value, so that it keeps that distance from the
     * process's other threads however the process was started. A thread that cannot (no libc to
     * bind) runs on at its priority, and the first such thread logs why.
     */
    public static void lowerCallingThread(int by) {
        try {
            LibC bound = libc;
            if (bound == null) {
                bound = jnr.ffi.LibraryLoader.create(LibC.class).load("c");
                libc = bound;
            }
            if (bound.nice(by) == -1) {
                warnOnce("nice(" + by + ") failed", null);
            }
        } catch (LinkageError | RuntimeException e) {
            warnOnce("cannot bind libc's nice", e);
        }
    }

    private static void warnOnce(String why, Throwable cause) {
        if (!warned) {
            warned = true;
            LOG.log(Level.WARNING, "kvtier: " + why + "; store threads run at the priority of lookups and loads", cause);
        }
    }
}
