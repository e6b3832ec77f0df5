package io.kvtier.hostlib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.spi.ConfigurationException;
import io.kvtier.spi.SpiVersion;
import org.junit.jupiter.api.Test;

class L2AdapterRegistryTest {
    @Test
    void discoversAutoServiceProvidersThroughTheGivenClassLoader() {
        L2AdapterRegistry registry = L2AdapterRegistry.load(getClass().getClassLoader());
        assertThat(registry.types()).contains("echo");
        assertThat(registry.find("echo")).containsInstanceOf(EchoProvider.class);
    }

    @Test
    void aProviderThatFailsToLoadIsReportedWithoutHidingTheOthers() {
        L2AdapterRegistry registry = L2AdapterRegistry.load(getClass().getClassLoader());
        assertThat(registry.loadFailures()).anySatisfy(f -> assertThat(f)
                .contains(BrokenProvider.class.getName()).contains("broken on purpose"));
        assertThat(registry.types()).contains("echo").doesNotContain("broken");
    }

    @Test
    void aProviderBuiltForANewerContractIsRefusedAloneInOneLine() {
        L2AdapterRegistry registry = L2AdapterRegistry.load(getClass().getClassLoader());
        assertThat(registry.types()).contains("echo").doesNotContain("future");
        assertThat(registry.loadFailures()).filteredOn(f -> f.contains("future")).singleElement().satisfies(f -> assertThat(f)
                .isEqualTo("'future' (" + FutureProvider.class.getName() + " in "
                        + L2AdapterRegistry.origin(FutureProvider.class) + ") was built for kvtier SPI version "
                        + (SpiVersion.CURRENT + 1) + ", but this host provides version " + SpiVersion.CURRENT
                        + ": use a build of the plugin for SPI " + SpiVersion.CURRENT + " or a newer host")
                .doesNotContain("\n"));
    }

    @Test
    void aClassLoaderWithoutProvidersFindsNone() {
        L2AdapterRegistry registry = L2AdapterRegistry.load(ClassLoader.getPlatformClassLoader());
        assertThat(registry.types()).isEmpty();
        assertThat(registry.knownTypes()).isEqualTo("(none)");
    }

    @Test
    void rejectsADuplicateTypeName() {
        assertThatThrownBy(() -> L2AdapterRegistry.of(new EchoProvider(), new EchoProvider()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("two adapter providers declare the type 'echo': io.kvtier.hostlib.EchoProvider in ")
                .hasMessageEndingWith("; remove one of them");
    }

    @Test
    void anUnknownTypeListsTheKnownOnes() {
        assertThatThrownBy(() -> L2AdapterRegistry.of(new EchoProvider()).require("fs"))
                .hasMessage("unknown adapter type 'fs'. Known: echo");
    }
}
