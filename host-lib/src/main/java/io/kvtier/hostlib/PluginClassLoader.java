package io.kvtier.hostlib;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader of one isolated plugin: its own jars, over the JDK, seeing from the host only
 * the contract ({@code io.kvtier.spi}) and the metrics registry it hands to plugins
 * ({@code com.codahale.metrics}). Everything else a plugin uses it must bundle, and its copies
 * never meet the host's or another plugin's, so two plugins may bundle conflicting versions of one
 * library. Resources are routed as classes are (as in Trino's {@code PluginClassLoader}): those
 * under a shared package come from the host alone, so that a plugin jar's stray copy of the
 * contract cannot be read in place of the host's; all others from the plugin's jars and the JDK.
 */
final class PluginClassLoader extends URLClassLoader {
    /** The packages a plugin shares with the host. */
    static final List<String> HOST_PACKAGES = List.of("io.kvtier.spi.", "com.codahale.metrics.");
    /** Their resource paths: {@code io/kvtier/spi/}, ... */
    private static final List<String> HOST_RESOURCES = HOST_PACKAGES.stream().map(p -> p.replace('.', '/')).toList();

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

    @Override
    public URL getResource(String name) {
        return isHostResource(name) ? host.getResource(name) : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return isHostResource(name) ? host.getResources(name) : super.getResources(name);
    }

    private static boolean isHostResource(String name) {
        return HOST_RESOURCES.stream().anyMatch(name::startsWith);
    }
}
