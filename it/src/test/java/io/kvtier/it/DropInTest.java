package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The plugin jar, dropped into a host that knows nothing else of it, in a separate JVM. */
class DropInTest {
    static final Path TEST_DOUBLE = Artifacts.TEST_DOUBLE;

    @Test
    void theDroppedInPluginListsItsType(@TempDir Path dir) throws Exception {
        HostProcess.Result r = HostProcess.install(dir, HostProcess.PLUGIN_JAR).kvtier("adapters");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().lines()).anySatisfy(l -> assertThat(l).startsWith("mooncake_store\t"))
                .anySatisfy(l -> assertThat(l).startsWith("memory\t"));
    }

    @Test
    void withoutThePluginTheTypeIsUnknown(@TempDir Path dir) throws Exception {
        HostProcess host = HostProcess.install(dir);
        assertThat(host.kvtier("adapters").out()).doesNotContain("mooncake_store");
        HostProcess.Result r = host.kvtier("validate", "-c", "conf/mooncake-tcp.conf");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("kvtier: conf/mooncake-tcp.conf:6: unknown adapter type 'mooncake_store'. Known: memory\n");
    }

    @Test
    void pluginsOnKvtierPluginsJoinTheClassPath(@TempDir Path dir) throws Exception {
        // The jar alone, as it is deployed: beside it in target/ lies the unshaded original-*.jar,
        // whose classes name Guice where the shaded jar relocated it.
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        Files.copy(HostProcess.PLUGIN_JAR, plugins.resolve(HostProcess.PLUGIN_JAR.getFileName()));
        HostProcess.Result r = HostProcess.install(dir.resolve("host"))
                .withEnv("KVTIER_PLUGINS", plugins.toString())
                .kvtier("adapters");
        assertThat(r.out()).contains("mooncake_store\t");
    }

    @ParameterizedTest
    @ValueSource(strings = {"KVTIER_PLUGINS jar", "KVTIER_PLUGINS directory", "plugins/", "plugins/<plugin>/"})
    void aJarThatCannotBeReadIsRefusedInOneLineNamingIt(String where, @TempDir Path dir) throws Exception {
        Path jars = Files.createDirectories(dir.resolve("jars"));
        Path corrupt = Files.writeString(jars.resolve("corrupt.jar"), "PK, then no zip");
        HostProcess host = HostProcess.install(dir.resolve("host"));
        Path named = switch (where) {
            case "KVTIER_PLUGINS jar" -> {
                host.withEnv("KVTIER_PLUGINS", corrupt.toString());
                yield corrupt;
            }
            case "KVTIER_PLUGINS directory" -> {
                host.withEnv("KVTIER_PLUGINS", jars.toString());
                yield corrupt;
            }
            case "plugins/" -> Files.copy(corrupt, dir.resolve("host/plugins/corrupt.jar"));
            default -> {
                host.withIsolatedPlugin("broken", corrupt);
                yield dir.resolve("host/plugins/broken/corrupt.jar");
            }
        };
        HostProcess.Result r = host.kvtier("adapters");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("kvtier: " + named + ": not a readable jar (zip END header not found)\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mooncake-tcp.conf", "mooncake-lanes.conf", "mooncake-rdma.conf", "mooncake-local.conf"})
    void everyMooncakeExampleValidates(String file, @TempDir Path dir) throws Exception {
        HostProcess.Result r = HostProcess.install(dir, HostProcess.PLUGIN_JAR).kvtier("validate", "-c", "conf/" + file);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().lines()).singleElement().satisfies(line -> assertThat(line)
                .contains("\"type\":\"mooncake_store\"", "\"setup_config\":", "\"replicate_config\":",
                        "\"num_workers\":", "\"per_op_workers\":"));
    }

    @Test
    void theEmbeddedDefaultRunsThroughTheScript(@TempDir Path dir) throws Exception {
        HostProcess.Result r = HostProcess.install(dir, HostProcess.PLUGIN_JAR)
                .kvtier("run", "--chunks", "32", "--chunk-size", "64 KiB");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("memory (memory)", "PASSED");
    }

    @Test
    void theHostRunsMooncakeStoreOnTheTestDoubleNamedByTheEnvironment(@TempDir Path dir) throws Exception {
        HostProcess.Result r;
        try (StandInMaster a = new StandInMaster(); StandInMaster b = new StandInMaster()) {
            r = HostProcess.install(dir, HostProcess.PLUGIN_JAR)
                    .withEnv("KVTIER_MOONCAKE_LIBRARY", TEST_DOUBLE.toString())
                    .kvtier("run", "--chunks", "64", "--chunk-size", "64 KiB", "--batch", "8", "--json", "--l2-adapter",
                            "{\"name\":\"a\",\"type\":\"mooncake_store\",\"local_hostname\":\"127.0.0.1\","
                                    + "\"metadata_server\":\"P2PHANDSHAKE\",\"master_server_addr\":\"" + a.address() + "\"}",
                            "--l2-adapter",
                            "{\"name\":\"b\",\"type\":\"mooncake_store\",\"per_op_workers\":{\"lookup\":1,\"store\":2},"
                                    + "\"local_hostname\":\"127.0.0.1\",\"metadata_server\":\"P2PHANDSHAKE\","
                                    + "\"master_server_addr\":\"" + b.address() + "\"}");
        }
        assertThat(r.exit()).as(r.err() + r.out()).isZero();
        assertThat(r.out()).contains("\"verified\":64", "\"passed\":true");
        assertThat(r.out()).as("the adapters' own metrics").contains("\"bytes_stored\":4194304", "\"hits\":64");
    }

    @Test
    void aLibraryThatIsNotAConnectorIsRefusedInOneLine(@TempDir Path dir) throws Exception {
        Path libjava = Path.of(System.getProperty("java.home"), "lib", "libjava.so");
        HostProcess.Result r = HostProcess.install(dir, HostProcess.PLUGIN_JAR)
                .withEnv("KVTIER_MOONCAKE_LIBRARY", libjava.toString())
                .kvtier("run", "--chunks", "1", "-c", "conf/mooncake-local.conf");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("kvtier: conf/mooncake-local.conf:9 ('mooncake_store'): instance 'mooncake-local' "
                + "could not be created: mooncake_store: refused the native connector " + libjava
                + " (environment variable KVTIER_MOONCAKE_LIBRARY): not a kvtier Mooncake connector: "
                + "it exports no kvt_abi_version\n");
    }

    @Test
    void withoutAConnectorTheErrorNamesTheBuildSwitch(@TempDir Path dir) throws Exception {
        try (ZipFile jar = new ZipFile(HostProcess.PLUGIN_JAR.toFile())) {
            org.junit.jupiter.api.Assumptions.assumeTrue(jar.getEntry("native/linux-x86_64/libkvtier_mooncake.so") == null,
                    "this plugin jar carries a real connector (built with BUILD_MOONCAKE=1)");
        }
        HostProcess.Result r = HostProcess.install(dir, HostProcess.PLUGIN_JAR)
                .kvtier("run", "--chunks", "1", "-c", "conf/mooncake-local.conf");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("BUILD_MOONCAKE").hasLineCount(1);
    }
}
