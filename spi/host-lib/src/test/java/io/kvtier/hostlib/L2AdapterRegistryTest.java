package io.kvtier.hostlib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void aClassLoaderWithoutProvidersFindsNone() {
        L2AdapterRegistry registry = L2AdapterRegistry.load(ClassLoader.getPlatformClassLoader());
        assertThat(registry.types()).isEmpty();
        assertThat(registry.knownTypes()).isEqualTo("(none)");
    }

    @Test
    void rejectsADuplicateTypeName() {
        assertThatThrownBy(() -> L2AdapterRegistry.of(new EchoProvider(), new EchoProvider()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("L2 adapter type already registered: 'echo'");
    }

    @Test
    void anUnknownTypeListsTheKnownOnes() {
        assertThatThrownBy(() -> L2AdapterRegistry.of(new EchoProvider()).require("fs"))
                .hasMessage("unknown adapter type 'fs'. Known: echo");
    }
}
