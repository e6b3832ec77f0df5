package io.kvtier.host;

import static io.kvtier.host.PluginDirs.kvtierWith;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.host.HostCli.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
    @Test
    void aRunWhoseBatchesFailWholePrintsItsReportWithTheErrorsByKindAndExitsOne(@TempDir Path dir) {
        Path plugins = PluginDirs.of(dir, UnhealthyAdapterDouble.Provider.class);

        // 8 chunks in batches of 4: per pass 8 stores, 8 + 2 lookups, 8 loads, 8 deletes and 8 rechecks fail.
        Result r = kvtierWith(plugins, "run", "--chunks", "8", "--chunk-size", "4 KiB", "--batch", "4", "--passes", "2",
                "--l2-adapter", "{\"type\":\"unhealthy\",\"name\":\"sick\"}");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("sick (unhealthy): 8 chunks", "  pass 1 (cold)", "  pass 2:",
                "stored 0  errors 8", "  FAILED: 84 errors (unclassified=84)", "1 instance(s) in ");
        assertThat(r.err()).doesNotContain("batch failed");
    }
}
