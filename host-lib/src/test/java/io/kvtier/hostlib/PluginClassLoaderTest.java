package io.kvtier.hostlib;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginClassLoaderTest {
    private static final String CONTRACT_CLASS = "io/kvtier/spi/L2Adapter.class";
    private static final ClassLoader HOST = PluginClassLoaderTest.class.getClassLoader();

    /** A plugin jar with a resource of its own and a stray copy of a contract class file. */
    private static PluginClassLoader pluginWithStrayContract(Path dir) throws IOException {
        Path jar = dir.resolve("plugin.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            for (String name : List.of("own/resource.txt", CONTRACT_CLASS)) {
                out.putNextEntry(new JarEntry(name));
                out.write(("the plugin's " + name).getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return new PluginClassLoader("test-plugin", List.of(jar.toUri().toURL()), HOST);
    }

    @Test
    void aResourceOfTheContractComesFromTheHostNotFromThePluginsJar(@TempDir Path dir) throws IOException {
        try (PluginClassLoader plugin = pluginWithStrayContract(dir)) {
            URL host = HOST.getResource(CONTRACT_CLASS);
            assertThat(plugin.getResource(CONTRACT_CLASS)).isEqualTo(host);
            assertThat(Collections.list(plugin.getResources(CONTRACT_CLASS))).containsExactly(host);
            try (InputStream in = plugin.getResourceAsStream(CONTRACT_CLASS)) {
                assertThat(in.readNBytes(4)).containsExactly(0xCA, 0xFE, 0xBA, 0xBE);
            }
        }
    }

    @Test
    void anyOtherResourceComesFromThePluginsJarsAndNeverFromTheHost(@TempDir Path dir) throws IOException {
        try (PluginClassLoader plugin = pluginWithStrayContract(dir)) {
            assertThat(plugin.getResource("own/resource.txt")).hasProtocol("jar");
            try (InputStream in = plugin.getResourceAsStream("own/resource.txt")) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("the plugin's own/resource.txt");
            }
            // On the host's class path (this module's test resources), outside the shared packages.
            String hostOnly = "kvtier/adapters/echo/reference.conf";
            assertThat(HOST.getResource(hostOnly)).isNotNull();
            assertThat(plugin.getResource(hostOnly)).isNull();
            assertThat(Collections.list(plugin.getResources(hostOnly))).isEmpty();
        }
    }

    @Test
    void aClassOfTheContractIsTheHostsAndAnyOtherIsNot(@TempDir Path dir) throws Exception {
        try (PluginClassLoader plugin = pluginWithStrayContract(dir)) {
            assertThat(plugin.loadClass("io.kvtier.spi.L2Adapter")).isSameAs(io.kvtier.spi.L2Adapter.class);
            assertThat(plugin.loadClass("com.codahale.metrics.MetricRegistry"))
                    .isSameAs(com.codahale.metrics.MetricRegistry.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> plugin.loadClass(Instances.class.getName()))
                    .isInstanceOf(ClassNotFoundException.class);
        }
    }
}
