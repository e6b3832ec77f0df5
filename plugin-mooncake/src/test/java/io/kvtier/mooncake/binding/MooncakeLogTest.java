package io.kvtier.mooncake.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void theLogIsBoundedBySixteenMebibytesUnlessTheEnvironmentSaysOtherwise() {
        assertThat(MooncakeLog.maxBytes(Map.<String, String>of()::get)).isEqualTo(16L << 20);
        assertThat(MooncakeLog.maxBytes(Map.of(MooncakeLog.MAX_ENV, "100 MiB")::get)).isEqualTo(100L << 20);
        assertThat(MooncakeLog.maxBytes(Map.of(MooncakeLog.MAX_ENV, "64kib")::get)).isEqualTo(64L << 10);
        assertThat(MooncakeLog.maxBytes(Map.of(MooncakeLog.MAX_ENV, "1GiB")::get)).isEqualTo(1L << 30);
        assertThat(MooncakeLog.maxBytes(Map.of(MooncakeLog.MAX_ENV, "1048576")::get)).isEqualTo(1L << 20);
    }

    @Test
    void aBoundThatIsNoSizeOrTooSmallIsOneErrorNamingTheVariableAndItsValue() {
        for (String bad : new String[] {"16 MB", "-1", "lots", "1000", "9999999999 GiB"}) {
            assertThatThrownBy(() -> MooncakeLog.maxBytes(Map.of(MooncakeLog.MAX_ENV, bad)::get))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("environment variable KVTIER_MOONCAKE_LOG_MAX = '" + bad + "': must be a size of at "
                            + "least 64 KiB, in bytes or with KiB, MiB or GiB, e.g. '16 MiB'");
        }
    }

    @Test
    void removingTheLogTakesTheFileAndItsOlderOne(@TempDir Path dir) throws Exception {
        Path log = Files.writeString(dir.resolve("kvtier-mooncake-1.log"), "W line\n");
        Files.writeString(dir.resolve("kvtier-mooncake-1.log.1"), "W older line\n");
        Files.writeString(dir.resolve("kvtier-mooncake-2.log"), "another process's\n");

        MooncakeLog.remove(log);

        try (var left = Files.list(dir)) {
            assertThat(left).extracting(p -> p.getFileName().toString()).containsExactly("kvtier-mooncake-2.log");
        }
    }
}
