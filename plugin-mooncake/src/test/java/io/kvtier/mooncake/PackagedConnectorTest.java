package io.kvtier.mooncake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.mooncake.binding.NativeLibraryLocator;
import io.kvtier.mooncake.binding.PackagedLibrary;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the plugin jar says of the connector it carries, and how a carried one that fails to load is reported. */
class PackagedConnectorTest {
    /** A class loader whose resources are the files under {@code dir}, as a plugin jar's would be. */
    private static URLClassLoader jarOf(Path dir) throws Exception {
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, null);
    }

    private static void write(Path dir, String resource, String text) throws Exception {
        Path file = dir.resolve(resource);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void aJarWithoutAConnectorSaysSoAndHowToBuildOne(@TempDir Path dir) throws Exception {
        try (URLClassLoader jar = jarOf(dir)) {
            assertThat(PackagedLibrary.describe(jar)).containsOnlyKeys("connector")
                    .extractingByKey("connector").asString().startsWith("not packaged").contains("BUILD_MOONCAKE=1");
        }
    }

    @Test
    void aJarWithAConnectorNamesTheMooncakeCommitItWasBuiltFromAndItsAids(@TempDir Path dir) throws Exception {
        write(dir, PackagedLibrary.RESOURCE, "not really a library");
        write(dir, PackagedLibrary.BUILD_FACTS,
                "mooncake.commit=3b5a594133958449a1feaf1c9e0fc1b553e34a28\nconnector.aids=connect_guard,fast_crc\n");
        try (URLClassLoader jar = jarOf(dir)) {
            assertThat(PackagedLibrary.describe(jar)).isEqualTo(Map.of(
                    "connector", "packaged (" + PackagedLibrary.RESOURCE + ")",
                    "mooncake_commit", "3b5a594133958449a1feaf1c9e0fc1b553e34a28",
                    "connector_aids", "connect_guard,fast_crc"));
        }
    }

    @Test
    void aPackagedConnectorThatCannotLoadIsNamedWithoutTheBuildHint(@TempDir Path dir) throws Exception {
        write(dir, PackagedLibrary.RESOURCE, "not really a library");
        try (URLClassLoader jar = jarOf(dir)) {
            assertThatThrownBy(() -> NativeLibraryLocator.searching(jar).load())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("mooncake_store: refused the native connector ")
                    .hasMessageContaining("packaged copy " + PackagedLibrary.RESOURCE)
                    .hasMessageNotContaining("BUILD_MOONCAKE");
        }
    }
}
