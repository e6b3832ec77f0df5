package com.example.kvtier.heap;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.spi.L2AdapterProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** What a host finds: the provider through ServiceLoader (AutoService's registration), and its options. */
class HeapStoreProviderTest {
    @Test
    void aHostFindsTheTypeAndItsReferenceConf() throws IOException {
        assertThat(ServiceLoader.load(L2AdapterProvider.class).stream().map(ServiceLoader.Provider::get))
                .anySatisfy(provider -> assertThat(provider.type()).isEqualTo("sample_heap"));
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("kvtier/adapters/sample_heap/reference.conf")) {
            assertThat(in).as("reference.conf in the jar").isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).startsWith("# ").contains("max_objects = 1024");
        }
    }
}
