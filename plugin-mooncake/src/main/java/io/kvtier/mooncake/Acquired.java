package io.kvtier.mooncake;

import java.util.ArrayDeque;
import java.util.Deque;

/** What a creation acquired so far, so that a failed creation releases it, newest first, and leaks nothing. */
final class Acquired {
    private final Deque<AutoCloseable> acquired = new ArrayDeque<>();

    <T extends AutoCloseable> T add(T resource) {
        acquired.push(resource);
        return resource;
    }

    /** Releases everything, adding what fails to release to {@code failure}. */
    void releaseAll(Throwable failure) {
        while (!acquired.isEmpty()) {
            try {
                acquired.pop().close();
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }
}
