package io.kvtier.host;

import io.kvtier.spi.L2AdapterProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Supplier;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * Plugins directories for in-process commands: each provider class in a jar of its own, isolated,
 * with the class it is nested in.
 */
final class PluginDirs {
    private PluginDirs() {}

    /** A plugins directory holding {@code plugins/<simple name>/<simple name>.jar} for each provider. */
    static Path of(Path root, Class<?>... providers) {
        try {
            for (Class<?> provider : providers) {
                Path dir = Files.createDirectories(root.resolve(provider.getSimpleName()));
                try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(dir.resolve(provider.getSimpleName() + ".jar")))) {
                    // The nest host too: a provider nested in its adapter's class needs that class.
                    for (Class<?> type : new LinkedHashSet<>(List.of(provider, provider.getNestHost(),
                            BadProviders.Base.class, BadProviders.class))) {
                        addClass(jar, type);
                    }
                    jar.putNextEntry(new JarEntry("META-INF/services/" + L2AdapterProvider.class.getName()));
                    jar.write((provider.getName() + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void addClass(JarOutputStream jar, Class<?> type) throws IOException {
        String entry = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(entry)) {
            jar.putNextEntry(new JarEntry(entry));
            in.transferTo(jar);
        }
    }

    /** Runs {@code command} with {@code pluginsDir} as the host's plugins directory. */
    static HostCli.Result kvtierWith(Path pluginsDir, String... command) {
        return withPluginsDir(pluginsDir, () -> HostCli.kvtier(command));
    }

    /** Runs {@code run} with {@code pluginsDir} as the host's plugins directory. */
    static <T> T withPluginsDir(Path pluginsDir, Supplier<T> run) {
        String before = System.getProperty(Main.PLUGINS_DIR);
        System.setProperty(Main.PLUGINS_DIR, pluginsDir.toString());
        try {
            return run.get();
        } finally {
            if (before == null) {
                System.clearProperty(Main.PLUGINS_DIR);
            } else {
                System.setProperty(Main.PLUGINS_DIR, before);
            }
        }
    }
}
