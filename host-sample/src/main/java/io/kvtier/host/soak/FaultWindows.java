package io.kvtier.host.soak;

import java.util.ArrayList;
import java.util.List;

/**
 * The fault windows of one instance: stretches of time during which the store may have lost what
 * it held. A window opens on the first error (or when the instance reports itself unhealthy, or on
 * an explicit mark) and closes once no error has been seen for the settle time; an explicitly marked
 * window closes only when marked recovered. Times are nanoseconds from {@link System#nanoTime()}.
 */
final class FaultWindows {
    /** @param endNanos -1 while open */
    record Window(long startNanos, long endNanos, long errors, String reason, boolean marked) {
        boolean open() {
            return endNanos < 0;
        }
    }

    private final long settleNanos;
    private final List<Window> closed = new ArrayList<>();
    private boolean open;
    private long start;
    private long lastTrouble;
    private long errors;
    private String reason;
    private boolean marked;

    FaultWindows(long settleNanos) {
        this.settleNanos = settleNanos;
    }

    synchronized void errors(long now, long count, String cause) {
        trouble(now, "errors: " + cause);
        errors += count;
    }

    synchronized void unhealthy(long now) {
        trouble(now, "unhealthy");
    }

    /** An external harness says it is inducing a fault now. */
    synchronized void markFault(long now) {
        trouble(now, "marked fault");
        marked = true;
    }

    /** An external harness says the fault it induced is over: the marked window closes now. */
    synchronized void markRecovered(long now) {
        if (open && marked) {
            close(now);
        }
    }

    private void trouble(long now, String why) {
        tick(now); // an earlier window may have settled before this trouble came
        if (!open) {
            open = true;
            start = now;
            errors = 0;
            reason = why;
            marked = false;
        }
        lastTrouble = Math.max(lastTrouble, now);
    }

    /** Closes an automatic window once the settle time has passed without trouble; the end is when it settled. */
    synchronized void tick(long now) {
        if (open && !marked && now - lastTrouble >= settleNanos) {
            close(lastTrouble + settleNanos);
        }
    }

    private void close(long end) {
        closed.add(new Window(start, end, errors, reason, marked));
        open = false;
    }

    /**
     * Whether a window was open at or after {@code sinceNanos}: a miss of an object whose store
     * began then, or an object of a key deleted then, may be the fault's doing. The store's start, not
     * its acknowledgement, counts: a worker may see the acknowledgement long after the object was
     * placed, the fault in between.
     */
    synchronized boolean excuses(long sinceNanos) {
        return open || (!closed.isEmpty() && closed.get(closed.size() - 1).endNanos() > sinceNanos);
    }

    /**
     * Whether a fault may have hit an object whose store began at {@code storeStartNanos}, and no
     * later fault began before it: the latest window opened after the store began. An object stored
     * once the fault was under way (in the settle time after a master's return, say) is not counted,
     * though {@link #excuses} forgives its miss.
     */
    synchronized boolean hitBy(long storeStartNanos) {
        return latestStart() > storeStartNanos;
    }

    /**
     * Whether an answer to a batch asked at {@code askedNanos} says what the latest fault did to an
     * object it may have hit ({@link #hitBy}): the batch was asked once that fault had begun. One
     * asked before may have been answered before the fault, and judges nothing of it.
     */
    synchronized boolean judges(long storeStartNanos, long askedNanos) {
        long latest = latestStart();
        return latest > storeStartNanos && latest <= askedNanos;
    }

    /** When the latest window opened; Long.MIN_VALUE before any did. */
    private long latestStart() {
        if (open) {
            return start;
        }
        return closed.isEmpty() ? Long.MIN_VALUE : closed.get(closed.size() - 1).startNanos();
    }

    synchronized boolean isOpen() {
        return open;
    }

    /** Every window, the open one last (with end -1). */
    synchronized List<Window> windows() {
        List<Window> all = new ArrayList<>(closed);
        if (open) {
            all.add(new Window(start, -1, errors, reason, marked));
        }
        return all;
    }
}
