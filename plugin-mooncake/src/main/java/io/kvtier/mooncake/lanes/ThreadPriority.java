package io.kvtier.mooncake.lanes;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Lowers the CPU priority of the calling thread, through libc's {@code setpriority}: on Linux a
 * thread's nice value is its own, and any thread may raise it without privileges. Java offers no way
 * ({@link Thread#setPriority} is ignored on Linux).
 */
public final class ThreadPriority {
    private static final Logger LOG = Logger.getLogger(ThreadPriority.class.getName());
    private static final int PRIO_PROCESS = 0;
    /** With PRIO_PROCESS, the calling thread (Linux applies the nice value per thread). */
    private static final int CALLING_THREAD = 0;
    private static final int LOWEST = 19;

    /** libc, as jnr-ffi binds it. */
    public interface LibC {
        int getpid();

        int getpriority(int which, int who);

        int setpriority(int which, int who, int prio);
    }

    private static volatile LibC libc;
    private static volatile boolean warned;

    private ThreadPriority() {
    }

    /**
     * Gives the calling thread the process's nice value plus {@code by}, so that it keeps that
     * distance from the process's other threads however the process was started. The process's is
     * its main thread's, not the calling thread's: a thread inherits its creator's nice value, and a
     * store thread started by another would otherwise end at 19. A thread that cannot (no libc to
     * bind) runs on at its priority, and the first such thread logs why.
     */
    public static void lowerCallingThread(int by) {
        try {
            LibC bound = libc;
            if (bound == null) {
                bound = jnr.ffi.LibraryLoader.create(LibC.class).load("c");
                libc = bound;
            }
            // On Linux, a pid names the thread whose id it is: the main thread.
            int nice = Math.min(LOWEST, bound.getpriority(PRIO_PROCESS, bound.getpid()) + by);
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
