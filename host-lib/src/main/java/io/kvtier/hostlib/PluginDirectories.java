package io.kvtier.hostlib;

import io.kvtier.spi.ConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * Isolated plugins: each directory directly under a plugins directory is one plugin, whose jars
 * are loaded by a {@link PluginClassLoader} of its own. (Jars lying directly in the plugins
 * directory are not isolated; a host puts them on its class path.)
 */
public final class PluginDirectories {
    private PluginDirectories() {}

    /**
     * One class loader per plugin directory under {@code pluginsDir}, in name order, each seeing
     * from {@code host} only the contract and metrics-core. A missing {@code pluginsDir} has none.
     *
     * @throws ConfigurationException when one of their jars cannot be read ({@link #requireReadableJar})
     */
    public static List<ClassLoader> classLoaders(Path pluginsDir, ClassLoader host) {
        if (!Files.isDirectory(pluginsDir)) {
            return List.of();
        }
        List<ClassLoader> loaders = new ArrayList<>();
        for (Path dir : list(pluginsDir).stream().filter(Files::isDirectory).toList()) {
            List<Path> jars = list(dir).stream().filter(p -> p.toString().endsWith(".jar")).toList();
            jars.forEach(PluginDirectories::requireReadableJar);
            if (!jars.isEmpty()) {
                loaders.add(new PluginClassLoader("kvtier-plugin-" + dir.getFileName(),
                        jars.stream().map(PluginDirectories::url).toList(), host));
            }
        }
        return loaders;
    }

    /**
     * Refuses a jar that does not open as one (truncated, or another kind of file): a class loader
     * skips it without a word, and the adapter types in it would just be missing.
     *
     * @throws ConfigurationException naming the jar and why it cannot be read
     */
    public static void requireReadableJar(Path jar) {
        try {
            new ZipFile(jar.toFile()).close();
        } catch (IOException e) {
            throw new ConfigurationException(jar.toString(), "not a readable jar (" + e.getMessage() + ")");
        }
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(jar.toString(), e);
        }
    }
}
