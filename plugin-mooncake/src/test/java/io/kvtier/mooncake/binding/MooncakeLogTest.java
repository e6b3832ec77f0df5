package io.kvtier.mooncake.binding;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MooncakeLogTest {
    private static Optional<Path> chosen(Map<String, String> env) {
        return MooncakeLog.chosenBy(env::get);
    }

    @Test
    void byDefaultTheLogGoesToAFileOfThisProcessInTheTempDirectory() {
        assertThat(chosen(Map.of())).contains(Path.of(System.getProperty("java.io.tmpdir"),
                "kvtier-mooncake-" + ProcessHandle.current().pid() + ".log"));
    }

    @Test
    void theEnvironmentNamesAnotherFileOrKeepsStderr() {
        assertThat(chosen(Map.of(MooncakeLog.ENV, "logs/mc.log"))).contains(Path.of("logs/mc.log").toAbsolutePath());
        assertThat(chosen(Map.of(MooncakeLog.ENV, "stderr"))).isEmpty();
    }

    @Test
    void mooncakesOwnLogDirectoryWins() {
        assertThat(chosen(Map.of("MC_LOG_DIR", "/var/log/mooncake"))).isEmpty();
        assertThat(chosen(Map.of("MC_LOG_DIR", "/var/log/mooncake", MooncakeLog.ENV, "x.log"))).isEmpty();
    }
}
