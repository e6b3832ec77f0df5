package io.kvtier.mooncake.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.mooncake.TestDouble;
import io.kvtier.mooncake.binding.NativeLibraryLocator;
import io.kvtier.mooncake.binding.PackagedLibrary;
import io.kvtier.spi.ConfigurationException;
import java.io.ByteArrayInputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An HA backend in master_server_addr that the connector's Mooncake was built without is refused
 * when the declaration is parsed, at the key; Mooncake would refuse it only at creation, with
 * INTERNAL_ERROR and "Invalid HA backend entry" in its log.
 */
class ConnectorBuildTest {
    private static final String AT = "test ('mooncake_store'): ";

    private static ConnectorBuild facts(String text) {
        return ConnectorBuild.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1)), "facts.properties");
    }

    private static MooncakeStoreConfig parse(String master, Supplier<ConnectorBuild> connector) {
        return MooncakeStoreConfig.fromSettings(TestDouble.settings(TestDouble.body("master_server_addr", master)), connector);
    }

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void theFactsListTheBackendsCommaSeparated() {
        assertThat(facts("mooncake.commit=3b5a5941\nmooncake.ha_backends=redis, etcd\n").haBackends())
                .containsExactlyInAnyOrder("redis", "etcd");
        ConnectorBuild none = facts("mooncake.ha_backends=\n");
        assertThat(none.haBackends()).isEmpty();
        assertThat(none.source()).isEqualTo("mooncake.ha_backends= in facts.properties");
    }

    @Test
    void anOlderConnectorWhoseFactsDoNotListThemHasNone() {
        ConnectorBuild older = facts("mooncake.commit=3b5a5941\n");
        assertThat(older.haBackends()).isEmpty();
        assertThat(older.source()).isEqualTo("facts.properties does not list mooncake.ha_backends "
                + "(a connector built before kvtier recorded it)");
        assertThat(ConnectorBuild.read(null, "facts.properties").haBackends()).isEmpty();
    }

    @Test
    void aBackendTheBuildLacksIsRefusedAtTheKeyNamingTheValueTheSourceAndTheBuildOption() {
        Supplier<ConnectorBuild> none = () -> facts("mooncake.ha_backends=\n");
        assertThatThrownBy(() -> parse("redis://10.0.0.1:6379", none))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(AT + "master_server_addr = \"redis://10.0.0.1:6379\" names Mooncake's redis HA backend, "
                        + "but the connector was built without it (mooncake.ha_backends= in facts.properties): use a "
                        + "connector built from a Mooncake with STORE_USE_REDIS, or give one master's host:port (no failover)");
        assertThatThrownBy(() -> parse("etcd://10.0.0.1:2379;10.0.0.2:2379", () -> facts("mooncake.ha_backends=redis")))
                .hasMessageContaining("names Mooncake's etcd HA backend, but the connector was built without it "
                        + "(mooncake.ha_backends=redis in facts.properties)")
                .hasMessageContaining("STORE_USE_ETCD");
        assertThatThrownBy(() -> parse("k8s://default/lease", none)).hasMessageContaining("STORE_USE_K8S_LEASE");
    }

    @Test
    void aBackendTheBuildHasIsAccepted() {
        Supplier<ConnectorBuild> both = () -> facts("mooncake.ha_backends=redis,etcd\n");
        assertThat(parse("redis://10.0.0.1:6379", both).setupConfig()).containsEntry("master_server_addr", "redis://10.0.0.1:6379");
        assertThat(parse("etcd://10.0.0.1:2379;10.0.0.2:2379", both).setupConfig())
                .containsEntry("master_server_addr", "etcd://10.0.0.1:2379;10.0.0.2:2379");
    }

    @Test
    void aMalformedFormIsRefusedWhateverTheBuildAndOneMasterNeverAsksIt() {
        Supplier<ConnectorBuild> unasked = () -> {
            throw new AssertionError("the build was asked");
        };
        assertThat(parse("10.0.0.1:50051", unasked).setupConfig()).containsEntry("master_server_addr", "10.0.0.1:50051");
        assertThatThrownBy(() -> parse("redis://a:1,b:2", unasked))
                .hasMessageStartingWith(AT + "master_server_addr redis://... must name one Redis server as host:port")
                .hasMessageEndingWith(", got \"redis://a:1,b:2\"");
    }

    @Test
    void anExplicitConnectorIsDescribedByTheFactsBesideIt(@TempDir Path dir) throws Exception {
        Path library = dir.resolve("libkvtier_mooncake.so");
        assertThat(NativeLibraryLocator.explicit(library).build().source())
                .isEqualTo(dir.resolve("connector.properties") + " (beside the connector named by explicit path) is missing");
        Files.writeString(dir.resolve("connector.properties"), "mooncake.ha_backends=redis\n");
        ConnectorBuild build = NativeLibraryLocator.explicit(library).build();
        assertThat(build.haBackends()).containsExactly("redis");
        assertThat(build.source()).startsWith("mooncake.ha_backends=redis in " + dir.resolve("connector.properties"));
    }

    @Test
    void thePackagedConnectorIsDescribedByTheJarsFacts(@TempDir Path dir) throws Exception {
        try (URLClassLoader empty = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null)) {
            assertThat(NativeLibraryLocator.searching(empty).build().haBackends()).isEmpty();
            assertThat(NativeLibraryLocator.searching(empty).build().source()).startsWith("the plugin jar carries no connector");
        }
        write(dir.resolve(PackagedLibrary.BUILD_FACTS), "mooncake.ha_backends=etcd\n");
        write(dir.resolve(PackagedLibrary.RESOURCE), "not really a library");
        try (URLClassLoader jar = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null)) {
            assertThat(NativeLibraryLocator.searching(jar).build())
                    .isEqualTo(new ConnectorBuild(Set.of("etcd"), "mooncake.ha_backends=etcd in the plugin jar's "
                            + PackagedLibrary.BUILD_FACTS));
        }
    }
}
