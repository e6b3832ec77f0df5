package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.spi.SpiVersion;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plugins compiled against kvtier-spi alone, dropped into a host in a separate JVM. */
class ContractOnlyPluginTest {
    @Test
    void aPluginCompiledOnlyAgainstTheContractLoadsAndRuns(@TempDir Path dir) throws Exception {
        Path jar = PluginJars.contractOnly(dir.resolve("build"), "contract_only", "SpiVersion.CURRENT");
        HostProcess.Result r = HostProcess.install(dir.resolve("host"), jar).kvtier("run", "--chunks", "16",
                "--chunk-size", "4 KiB", "--l2-adapter", "{\"type\":\"contract_only\"}");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("contract_only-0 (contract_only)", "PASSED");
    }

    @Test
    void aPluginBuiltForANewerContractIsRefusedAloneWithOneLine(@TempDir Path dir) throws Exception {
        Path current = PluginJars.contractOnly(dir.resolve("current"), "contract_only", "SpiVersion.CURRENT");
        Path future = PluginJars.contractOnly(dir.resolve("future"), "from_the_future", "SpiVersion.CURRENT + 1");
        HostProcess.Result r = HostProcess.install(dir.resolve("host"), current, future).kvtier("adapters");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("contract_only\t", "memory\t").doesNotContain("from_the_future");
        assertThat(r.err().lines()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("kvtier: warning: an adapter provider failed to load: 'from_the_future' ("
                        + "example.from_the_future.ContractOnlyProvider in ")
                .contains("from_the_future.jar")
                .endsWith("was built for kvtier SPI version " + (SpiVersion.CURRENT + 1)
                        + ", but this host provides version " + SpiVersion.CURRENT + ": use a build of the plugin for SPI "
                        + SpiVersion.CURRENT + " or a newer host"));
    }
}
