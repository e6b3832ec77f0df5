package io.kvtier.mooncake;

import com.google.inject.Key;
import com.google.inject.Scopes;
import com.google.inject.name.Named;
import com.google.inject.spi.ProvisionListener;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.l1.L1Registration;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one owner of what a {@code mooncake_store} instance acquires. As the instance's provision
 * listener it records every singleton with something to release as Guice makes it, so the record
 * is in creation order, each part after what it uses. {@link #close} releases them newest first,
 * exactly once: when the adapter closes, and when its creation failed, which so leaks nothing.
 *
 * <p>The native client and its L1 registration are freed only once every native call has
 * returned ({@link NativeCalls}): freeing the client under a running call could crash the JVM, so
 * when one has not returned in time, both are left in place, with a warning.
 */
final class Lifecycle implements ProvisionListener {
    private static final Logger LOG = Logger.getLogger(Lifecycle.class.getName());

    /** A part and what the log calls it. */
    private record Part(String what, Object made) {}

    private final String name;
    private final Deque<Part> parts = new ArrayDeque<>();
    /** The bound of the first stop whose native calls had not returned, once there was one. */
    private Duration late;

    Lifecycle(String name) {
        this.name = name;
    }

    @Override
    public <T> void onProvision(ProvisionInvocation<T> provision) {
        T made = provision.provision();
        // Not the adapter: its close() is what calls this one's.
        if (Scopes.isSingleton(provision.getBinding()) && !(made instanceof MooncakeStoreAdapter)
                && (made instanceof AutoCloseable || made instanceof NativeCalls || made instanceof ExecutorService)) {
            record(new Part(what(provision.getBinding().getKey()), made));
        }
    }

    private synchronized void record(Part part) {
        parts.push(part);
    }

    private static String what(Key<?> key) {
        return key.getAnnotation() instanceof Named named ? named.value() : key.getTypeLiteral().getRawType().getSimpleName();
    }

    /**
     * Releases every part, newest first, handing what one throws to {@code failed}, so that the
     * older ones are still released. A second call finds nothing left.
     */
    synchronized void close(Consumer<Exception> failed) {
        while (!parts.isEmpty()) {
            Part part = parts.pop();
            try {
                LOG.log(Level.FINE, "mooncake_store adapter ''{0}'': {1} {2}",
                        new Object[] {name, release(part.made()) ? "released" : "left in place", part.what()});
            } catch (Exception e) {
                failed.accept(e);
            }
        }
    }

    /** Whether {@code part} was released, not left in place. */
    private boolean release(Object part) throws Exception {
        if (part instanceof NativeCalls calls) {
            if (!calls.stop() && late == null) {
                late = calls.bound();
            }
        } else if (part instanceof MooncakeClient || part instanceof L1Registration) {
            if (late != null) {
                // Warned at the client alone, the registration's owner, released after it.
                if (part instanceof MooncakeClient) {
                    LOG.log(Level.WARNING, "mooncake_store adapter ''{0}'': native calls still running after {1}; "
                            + "leaving the Mooncake client and its L1 registration in place", new Object[] {name, late});
                }
                return false;
            }
            ((AutoCloseable) part).close();
        } else if (part instanceof ExecutorService executor) {
            // ExecutorService is AutoCloseable only from Java 19, and its close() waits: shutdownNow() does not.
            executor.shutdownNow();
        } else {
            ((AutoCloseable) part).close();
        }
        return true;
    }
}
