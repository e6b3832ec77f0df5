package io.kvtier.mooncake.lanes;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Lowers the CPU priority of the calling thread, through libc's {@code setpriority}: on Linux a
 * thread's nice value is its own, and any thread may raise it without privileges. Java offers no
 * way ({@link Thread#setPriority} is ignored on Linux).
 */
public final class ThreadPriority {
    private static final Logger LOG = Logger.getLogger(ThreadPriority.class.getName());
    private static final int PRIO_PROCESS = 0;
    /** With PRIO_PROCESS, the calling thread (Linux applies the nice value per thread). */
    private static final int CALLING_THREAD = 0;

    /** libc, as jnr-ffi binds it. */
    public interface LibC {
        int setpriority(int which, int who, int prio);
    }

    private static volatile LibC libc;
    private static volatile boolean warned;

    private ThreadPriority() {
    }

    /**
     * Gives the calling thread the nice value {@code nice}. A thread that cannot (no libc to bind)
     * runs on at its priority, and the first such thread logs why.
     */
    public static void lowerCallingThread(int nice) {
        try {
            LibC bound = libc;
            if (bound == null) {
                bound = jnr.ffi.LibraryLoader.create(LibC.class).load("c");
                libc = bound;
            }
            if (bound.setpriority(PRIO_PROCESS, CALLING_THREAD, nice) != 0) {
                warnOnce("setpriority(" + nice + ") failed", null);
            }
        } catch (LinkageError | RuntimeException e) {
            warnOnce("cannot bind libc's setpriority", e);
        }
    }

    private static void warnOnce(String why, Throwable cause) {
        if (!warned) {
            warned = true;
            LOG.log(Level.WARNING, "kvtier: " + why + "; store threads run at the priority of lookups and loads", cause);
        }
    }
}
