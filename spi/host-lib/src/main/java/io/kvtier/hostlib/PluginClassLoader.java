package io.kvtier.hostlib;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * The class loader of one isolated plugin: its own jars, over the JDK, seeing from the host only
 * the contract ({@code io.kvtier.spi}) and the metrics registry it hands to plugins
 * ({@code com.codahale.metrics}). Everything else a plugin uses it must bundle, and its copies
 * never meet the host's or another plugin's, so two plugins may bundle conflicting versions of one
 * library.
 */
final class PluginClassLoader extends URLClassLoader {
    /** The packages a plugin shares with the host. */
    static final List<String> HOST_PACKAGES = List.of("io.kvtier.spi.", "com.codahale.metrics.");

    private final ClassLoader host;

    PluginClassLoader(String name, List<URL> jars, ClassLoader host) {
        super(name, jars.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        this.host = host;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        for (String shared : HOST_PACKAGES) {
            if (name.startsWith(shared)) {
                return host.loadClass(name);
            }
        }
        return super.loadClass(name, resolve);
    }
}
