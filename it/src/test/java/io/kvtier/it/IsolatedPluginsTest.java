package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plugins in directories of their own under plugins/, each in a class loader of its own. */
class IsolatedPluginsTest {
    @Test
    void twoPluginsBundlingConflictingVersionsOfOneLibraryWorkSideBySide(@TempDir Path dir) throws Exception {
        Path lib1 = PluginJars.library(dir.resolve("build"), "1.0");
        Path lib2 = PluginJars.library(dir.resolve("build"), "2.0");
        Path pluginA = PluginJars.usingLibrary(dir.resolve("build/a"), "plugin_a", lib1);
        Path pluginB = PluginJars.usingLibrary(dir.resolve("build/b"), "plugin_b", lib2);
        HostProcess host = HostProcess.install(dir.resolve("host"))
                .withIsolatedPlugin("plugin_a", pluginA, lib1)
                .withIsolatedPlugin("plugin_b", pluginB, lib2);
        HostProcess.Result r = host.kvtier("validate", "--l2-adapter", "{\"type\":\"plugin_a\"}",
                "--l2-adapter", "{\"type\":\"plugin_b\"}");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().lines()).containsExactly(
                "{\"config\":{\"library\":\"1.0\"},\"name\":\"plugin_a-0\",\"type\":\"plugin_a\"}",
                "{\"config\":{\"library\":\"2.0\"},\"name\":\"plugin_b-1\",\"type\":\"plugin_b\"}");
        HostProcess.Result run = host.kvtier("run", "--chunks", "8", "--chunk-size", "4 KiB",
                "--l2-adapter", "{\"type\":\"plugin_a\"}", "--l2-adapter", "{\"type\":\"plugin_b\"}");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("plugin_a-0 (plugin_a)", "plugin_b-1 (plugin_b)", "PASSED");
    }

    @Test
    void anIsolatedPluginSeesNothingOfTheHostButTheContract(@TempDir Path dir) throws Exception {
        // Typesafe Config is on the host's class path, where the host library reads declarations with it.
        Path config;
        try (Stream<Path> libs = Files.list(Artifacts.CLI_LIB)) {
            config = libs.filter(p -> p.getFileName().toString().startsWith("config-")).findFirst().orElseThrow();
        }
        Path plugin = PluginJars.plugin(dir.resolve("build/p"), "plugin_p",
                "com.typesafe.config.ConfigFactory.empty().toString()", config);
        HostProcess host = HostProcess.install(dir.resolve("host")).withIsolatedPlugin("plugin_p", plugin);
        HostProcess.Result r = host.kvtier("validate", "--l2-adapter", "{\"type\":\"plugin_p\"}");
        assertThat(r.exit()).as("the host does not lend its Typesafe Config").isEqualTo(1);
        assertThat(r.err()).contains("cannot run: java.lang.NoClassDefFoundError: com/typesafe/config/ConfigFactory")
                .hasLineCount(1);
    }

    @Test
    void theMooncakePluginRunsIsolatedOnTheTestDouble(@TempDir Path dir) throws Exception {
        HostProcess.Result r;
        try (StandInMaster master = new StandInMaster()) {
            r = HostProcess.install(dir).withIsolatedPlugin("mooncake_store", HostProcess.PLUGIN_JAR)
                    .withEnv("KVTIER_MOONCAKE_LIBRARY", DropInTest.TEST_DOUBLE.toString())
                    .kvtier("run", "--chunks", "16", "--chunk-size", "64 KiB", "--l2-adapter",
                            "{\"type\":\"mooncake_store\",\"local_hostname\":\"127.0.0.1\","
                                    + "\"metadata_server\":\"P2PHANDSHAKE\",\"master_server_addr\":\"" + master.address() + "\"}");
        }
        assertThat(r.exit()).as(r.err() + r.out()).isZero();
        assertThat(r.out()).contains("PASSED");
    }

    @Test
    void theMooncakePluginCarriesGuiceAndGuavaOnlyRelocated() throws Exception {
        List<String> entries;
        try (JarFile jar = new JarFile(HostProcess.PLUGIN_JAR.toFile())) {
            entries = jar.stream().map(JarEntry::getName).toList();
        }
        assertThat(entries).as("a host's own Guava or Guice cannot clash")
                .noneMatch(e -> e.startsWith("com/google/inject/") || e.startsWith("com/google/common/")
                        || e.startsWith("jakarta/inject/") || e.startsWith("org/aopalliance/"))
                .contains("io/kvtier/mooncake/shaded/com/google/inject/Guice.class",
                        "io/kvtier/mooncake/shaded/com/google/common/collect/ImmutableList.class",
                        "io/kvtier/mooncake/shaded/jakarta/inject/Provider.class",
                        "io/kvtier/mooncake/shaded/org/aopalliance/intercept/MethodInterceptor.class");
    }
}
