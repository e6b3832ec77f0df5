package io.kvtier.host;

import static io.kvtier.host.PluginDirs.kvtierWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.host.HostCli.Result;
import io.kvtier.spi.ConfigurationException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginFailuresTest {
    @Test
    void aProviderWhoseTypeFailsIsReportedWithItsClassAndJarAndTheOthersStillWork(@TempDir Path dir) {
        Path plugins = PluginDirs.of(dir, BadProviders.TypeThrows.class, BadProviders.TypeIsNull.class,
                BadProviders.TypeIsEmpty.class);
        Result r = kvtierWith(plugins, "validate", "--l2-adapter", "{\"type\":\"memory\"}");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"type\":\"memory\"");
        assertThat(r.err().lines()).containsExactlyInAnyOrder(
                "kvtier: warning: an adapter provider failed to load: io.kvtier.host.BadProviders$TypeThrows in "
                        + dir.resolve("TypeThrows/TypeThrows.jar") + " failed: java.lang.AssertionError: type() is broken",
                "kvtier: warning: an adapter provider failed to load: io.kvtier.host.BadProviders$TypeIsNull in "
                        + dir.resolve("TypeIsNull/TypeIsNull.jar") + ": type() returned null instead of a type name",
                "kvtier: warning: an adapter provider failed to load: io.kvtier.host.BadProviders$TypeIsEmpty in "
                        + dir.resolve("TypeIsEmpty/TypeIsEmpty.jar") + ": type() returned \"\" instead of a type name");
    }

    @Test
    void aPluginJarThatCannotBeReadIsAConfigurationErrorNamingIt(@TempDir Path dir) throws Exception {
        Path plugins = PluginDirs.of(dir, BadProviders.MasterDown.class);
        Path corrupt = Files.writeString(Files.createDirectories(dir.resolve("broken")).resolve("broken.jar"), "PK, then no zip");
        Result r = kvtierWith(plugins, "adapters");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("kvtier: " + corrupt + ": not a readable jar (zip END header not found)\n");
    }

    @Test
    void aJarOnTheClassPathThatCannotBeReadIsAConfigurationErrorNamingIt(@TempDir Path dir) throws Exception {
        Path good = PluginDirs.of(dir, BadProviders.MasterDown.class).resolve("MasterDown/MasterDown.jar");
        Path empty = Files.createFile(dir.resolve("empty.jar"));
        Main.requireReadableJars(String.join(File.pathSeparator, good.toString(), dir.toString(), dir.resolve("gone.jar").toString()));
        assertThatThrownBy(() -> Main.requireReadableJars(good + File.pathSeparator + empty))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(empty + ": not a readable jar (zip file is empty)");
    }

    @Test
    void twoProvidersOfOneTypeAreAConfigurationErrorNamingBothJars(@TempDir Path dir) {
        Result r = kvtierWith(PluginDirs.of(dir, BadProviders.SecondMemory.class), "adapters");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().lines()).singleElement().asString()
                .startsWith("kvtier: two adapter providers declare the type 'memory': "
                        + "io.kvtier.memory.MemoryAdapterProvider in ")
                .contains(", and io.kvtier.host.BadProviders$SecondMemory in " + dir.resolve("SecondMemory/SecondMemory.jar"));
    }

    @Test
    void anErrorOutOfParseConfigOrDescribeIsThePluginsFailureInOneLine(@TempDir Path dir) {
        Path plugins = PluginDirs.of(dir, BadProviders.ParseThrowsError.class, BadProviders.DescribeThrowsError.class);
        Result parse = kvtierWith(plugins, "validate", "--l2-adapter", "{\"type\":\"error_on_parse\"}");
        assertThat(parse.exit()).isEqualTo(1);
        assertThat(parse.err()).isEqualTo("kvtier: --l2-adapter #1 ('error_on_parse'): the provider failed parsing "
                + "the declaration: java.lang.StackOverflowError\n");
        Result describe = kvtierWith(plugins, "validate", "--l2-adapter", "{\"type\":\"error_on_describe\"}");
        assertThat(describe.exit()).isEqualTo(1);
        assertThat(describe.err()).isEqualTo("kvtier: --l2-adapter #1 ('error_on_describe'): the provider failed "
                + "describing the declaration: java.lang.AssertionError: a bug in describe()\n");
    }

    @Test
    void anInstanceThatCannotStartIsNamedWithWhereItIsDeclared(@TempDir Path dir) throws Exception {
        Path plugins = PluginDirs.of(dir, BadProviders.MasterDown.class);
        Path conf = Files.writeString(dir.resolve("node.conf"),
                "kvtier.l2.adapters = [\n  { type = memory }\n  {\n    name = remote\n    type = master_down\n  }\n]\n");
        Result file = kvtierWith(plugins, "run", "--chunks", "1", "--chunk-size", "1 KiB", "-c", conf.toString());
        assertThat(file.exit()).isEqualTo(1);
        assertThat(file.err()).isEqualTo("kvtier: " + conf + ":3 ('master_down'): instance 'remote' could not be created: "
                + "master_down: cannot reach master_server_addr 127.0.0.1:1 (Connection refused)\n");
        Result flag = kvtierWith(plugins, "run", "--chunks", "1", "--chunk-size", "1 KiB",
                "--l2-adapter", "{\"type\":\"memory\"}", "--l2-adapter", "{\"type\":\"master_down\"}");
        assertThat(flag.exit()).isEqualTo(1);
        assertThat(flag.err()).startsWith("kvtier: --l2-adapter #2 ('master_down'): instance 'master_down-1' could not be created: ");
    }

    @Test
    void anErrorOutOfCreateIsThePluginsFailureInOneLine(@TempDir Path dir) {
        Result r = kvtierWith(PluginDirs.of(dir, BadProviders.CreateThrowsError.class), "run", "--chunks", "1",
                "--chunk-size", "1 KiB", "--l2-adapter", "{\"type\":\"error_on_create\"}");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("kvtier: --l2-adapter #1 ('error_on_create'): the provider failed creating an "
                + "instance of the declaration: java.lang.AssertionError: a bug in create()\n");
    }
}
