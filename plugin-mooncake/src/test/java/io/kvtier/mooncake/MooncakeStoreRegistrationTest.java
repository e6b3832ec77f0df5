package io.kvtier.mooncake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.Provider;
import com.google.inject.util.Modules;
import io.kvtier.hostlib.L2AdapterRegistry;
import io.kvtier.mooncake.binding.NativeAbi;
import io.kvtier.mooncake.binding.NativeLibraryLocator;
import io.kvtier.mooncake.binding.PackagedLibrary;
import io.kvtier.mooncake.config.MooncakeStoreConfig;
import io.kvtier.mooncake.health.Timings;
import io.kvtier.spi.L2AdapterProvider;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Discovery of the type (LMCache's registration tests 16–18), and the connector lookup order. */
class MooncakeStoreRegistrationTest {
    private static final Path MISSING = Path.of("/nonexistent/kvtier/libkvtier_mooncake.so");

    // 16
    @Test
    void typeIsDiscoveredThroughServiceLoader() {
        L2AdapterRegistry registry = L2AdapterRegistry.load(getClass().getClassLoader());
        assertThat(registry.types()).contains("mooncake_store");
        assertThat(registry.loadFailures()).isEmpty();
    }

    // 17
    @Test
    void discoveredProviderParsesIntoItsConfigType() {
        L2AdapterProvider<?> provider = L2AdapterRegistry.load(getClass().getClassLoader()).require("mooncake_store");
        assertThat(provider).isInstanceOf(MooncakeStoreProvider.class);
        assertThat(provider.type()).isEqualTo("mooncake_store");
        assertThat(provider.parseConfig(TestDouble.settings(TestDouble.body()))).isInstanceOf(MooncakeStoreConfig.class);
    }

    /** A provider whose connector is not where it is looked for. */
    private static MooncakeStoreProvider missingConnector() {
        return new MooncakeStoreProvider(Modules.override(TestDouble.overDouble(TestDouble.binding(), Timings.DEFAULTS))
                .with(binder -> binder.bind(NativeAbi.MooncakeNative.class)
                        .toProvider((Provider<NativeAbi.MooncakeNative>) () -> NativeLibraryLocator.explicit(MISSING).load())));
    }

    // 18
    @Test
    void factoryFailsClearlyWithoutTheConnector() {
        MooncakeStoreProvider provider = missingConnector();
        MooncakeStoreConfig config = provider.parseConfig(TestDouble.settings(TestDouble.body()));
        assertThatThrownBy(() -> provider.create(config, TestDouble.context("mc")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Mooncake")
                .hasMessageContaining("BUILD_MOONCAKE")
                .hasMessageContaining(MISSING.toString())
                .hasMessageContaining("no such file");
    }

    @Test
    void theConnectorIsCheckedBeforeTheRdmaRule() {
        MooncakeStoreProvider provider = missingConnector();
        MooncakeStoreConfig rdma = provider.parseConfig(TestDouble.settings(TestDouble.body("protocol", "rdma")));
        assertThatThrownBy(() -> provider.create(rdma, TestDouble.context("mc")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("BUILD_MOONCAKE");
    }

    @Test
    void aFileThatIsNotALibraryIsReportedWithTheLoaderError() throws IOException {
        Path bogus = Files.createTempFile("not-a-library", ".so");
        try {
            Files.writeString(bogus, "not an ELF file");
            assertThatThrownBy(() -> NativeLibraryLocator.explicit(bogus).load())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(bogus.toString())
                    .hasMessageContaining("cannot open it: ")
                    .as("the file is there: a build hint would mislead").hasMessageNotContaining("BUILD_MOONCAKE");
        } finally {
            Files.deleteIfExists(bogus);
        }
    }

    @Test
    void systemPropertyIsAuthoritative() {
        String before = System.getProperty(NativeLibraryLocator.PROPERTY);
        System.setProperty(NativeLibraryLocator.PROPERTY, MISSING.toString());
        try {
            assertThatThrownBy(() -> NativeLibraryLocator.fromEnvironment().load())
                    .hasMessageContaining(MISSING + " (system property kvtier.mooncake.library): no such file");
            System.setProperty(NativeLibraryLocator.PROPERTY, TestDouble.path().toString());
            assertThat(NativeLibraryLocator.fromEnvironment().load()).isNotNull();
        } finally {
            if (before == null) {
                System.clearProperty(NativeLibraryLocator.PROPERTY);
            } else {
                System.setProperty(NativeLibraryLocator.PROPERTY, before);
            }
        }
    }

    @Test
    void withoutAPackagedCopyTheSearchPathIsTriedAndBothAreNamed() {
        ClassLoader empty = new ClassLoader(null) {};
        assertThatThrownBy(() -> NativeLibraryLocator.searching(empty).load())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("packaged copy native/linux-x86_64/libkvtier_mooncake.so: not in the plugin jar")
                .hasMessageContaining("library 'kvtier_mooncake' on the search path")
                .hasMessageContaining("BUILD_MOONCAKE");
    }

    @Test
    void thePackagedCopyIsExtractedAndLoaded() {
        ClassLoader packaging = new ClassLoader(null) {
            @Override
            public InputStream getResourceAsStream(String name) {
                if (!name.equals(PackagedLibrary.RESOURCE)) {
                    return null;
                }
                try {
                    // The double stands in for a packaged connector: same ABI.
                    return new ByteArrayInputStream(Files.readAllBytes(TestDouble.path()));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        NativeAbi.MooncakeNative lib = NativeLibraryLocator.searching(packaging).load();
        assertThat(lib.kvt_last_error()).isNotNull();
    }

    @Test
    void eachPathIsLoadedOncePerJvm() {
        assertThat(TestDouble.binding()).isSameAs(TestDouble.binding());
    }

    @Test
    void providerCreatesThroughAnExplicitLibrary() {
        MooncakeStoreProvider provider = TestDouble.provider();
        try (MooncakeStoreAdapter adapter = TestDouble.create(provider, TestDouble.body(), TestDouble.context("mc"))) {
            Map<String, Object> status = adapter.status();
            assertThat(status).containsEntry("is_healthy", true).containsEntry("type", "mooncake_store");
        }
        assertThat(Optional.of(provider.type())).contains("mooncake_store");
    }
}
