package io.kvtier.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sample plugin project's jar, dropped into a host as a plugin of its own, runs the workload. */
class SamplePluginTest {
    static final Path SAMPLE_JAR = Artifacts.SAMPLE_PLUGIN_JAR;

    @Test
    void theSamplePluginLoadsIsolatedAndPassesTheWorkload(@TempDir Path dir) throws Exception {
        HostProcess host = HostProcess.install(dir);
        Path plugin = Files.createDirectories(dir.resolve("plugins/sample_heap"));
        Files.copy(SAMPLE_JAR, plugin.resolve(SAMPLE_JAR.getFileName()));

        HostProcess.Result adapters = host.kvtier("adapters");
        assertThat(adapters.exit()).as(adapters.err()).isZero();
        assertThat(adapters.out().lines()).anySatisfy(line -> assertThat(line).startsWith("sample_heap\t"));

        HostProcess.Result run = host.kvtier("run", "--l2-adapter", "{\"type\":\"sample_heap\",\"max_objects\":64}",
                "--chunks", "32", "--chunk-size", "64 KiB");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("sample_heap-0 (sample_heap)", "PASSED");
    }
}
