package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.spi.SpiVersion;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin compiled against the contract as it was at revision 2 (its sources kept in
 * {@code spi-revision-2/}) runs unchanged in today's host: binary compatibility, not just source.
 */
class SpiRevision2PluginTest {
    @Test
    void aPluginBuiltForRevision2RunsAndSoaksInTodaysHost(@TempDir Path dir) throws Exception {
        Path revision2 = PluginJars.spiRevision2(dir.resolve("spi-2"));
        assertThat(compiledRevision(revision2)).as("the old contract's revision").isEqualTo(2).isLessThan(SpiVersion.CURRENT);
        Path plugin = PluginJars.contractOnlyAgainst(dir.resolve("plugin"), revision2, "revision_two");
        HostProcess host = HostProcess.install(dir.resolve("host"), plugin);

        HostProcess.Result adapters = host.kvtier("adapters");
        assertThat(adapters.exit()).as(adapters.err()).isZero();
        assertThat(adapters.out()).contains("revision_two\t");
        assertThat(adapters.err()).isEmpty();

        HostProcess.Result run = host.kvtier("run", "--chunks", "32", "--chunk-size", "4 KiB",
                "--l2-adapter", "{\"type\":\"revision_two\"}");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("revision_two-0 (revision_two)", "PASSED");

        // The soak reads health() every second, which a revision-2 adapter answers through status().
        HostProcess.Result soak = host.kvtier("soak", "--duration", "2s", "--chunk-size", "4 KiB", "--json",
                "--l2-adapter", "{\"type\":\"revision_two\"}");
        assertThat(soak.exit()).as(soak.err()).isZero();
        assertThat(soak.out()).as("no fault window: health() read healthy").contains("\"corrupted\":0", "\"fault_windows\":[]");
    }

    private static int compiledRevision(Path spiJar) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {spiJar.toUri().toURL()}, null)) {
            return loader.loadClass("io.kvtier.spi.SpiVersion").getField("CURRENT").getInt(null);
        }
    }
}
