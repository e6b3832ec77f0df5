package io.kvtier.hostlib;

/**
 * Makes a loader the calling thread's context class loader until closed, then restores the one
 * before, as Trino's {@code ThreadContextClassLoader} does. A plugin's libraries (Guice,
 * ServiceLoader, logging back-ends) find their classes and resources through the context loader,
 * so a plugin call must run with the plugin's own loader there, not the host's.
 */
final class ThreadContextClassLoader implements AutoCloseable {
    private final ClassLoader original;

    ThreadContextClassLoader(ClassLoader loader) {
        Thread thread = Thread.currentThread();
        original = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
    }

    @Override
    public void close() {
        Thread.currentThread().setContextClassLoader(original);
    }
}
