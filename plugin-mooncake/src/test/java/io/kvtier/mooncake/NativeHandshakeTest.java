package io.kvtier.mooncake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvtier.mooncake.binding.NativeAbi;
import io.kvtier.mooncake.binding.NativeLibraryLocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binding refuses, in one line naming the file, any library that is not a connector of its ABI. */
class NativeHandshakeTest {
    private static IllegalStateException refusal(Path library) {
        try {
            NativeLibraryLocator.explicit(library).load();
        } catch (IllegalStateException e) {
            return e;
        }
        throw new AssertionError(library + " was accepted");
    }

    @Test
    void aSharedLibraryThatIsNotAConnectorIsRefusedInOneLine() {
        Path libjava = Path.of(System.getProperty("java.home"), "lib", "libjava.so");
        assertThat(refusal(libjava)).hasMessage("mooncake_store: refused the native connector " + libjava
                + " (explicit path): not a kvtier Mooncake connector: it exports no kvt_abi_version");
    }

    @Test
    void aFileThatIsNotALibraryIsRefusedInOneLine(@TempDir Path dir) throws Exception {
        Path text = Files.writeString(dir.resolve("libkvtier_mooncake.so"), "not a library\n");
        assertThat(refusal(text).getMessage()).startsWith("mooncake_store: refused the native connector " + text
                + " (explicit path): ").doesNotContain("\n");
    }

    @Test
    void aConnectorOfAnotherAbiVersionIsRefusedBeforeAnythingElseIsBound(@TempDir Path dir) throws Exception {
        Path source = Files.writeString(dir.resolve("stale.c"),
                "int kvt_abi_version(void) { return 999; }\nint kvt_store(void) { return 0; }\n");
        Path library = dir.resolve("libstale.so");
        Process cc = new ProcessBuilder("cc", "-shared", "-fPIC", "-o", library.toString(), source.toString())
                .inheritIO().start();
        assumeTrue(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0, "no C compiler to build a stale connector");
        assertThat(refusal(library)).hasMessage("mooncake_store: refused the native connector " + library
                + " (explicit path): a kvtier Mooncake connector of ABI version 999, but this plugin needs version "
                + NativeAbi.VERSION + ": rebuild the connector from this plugin's sources");
    }

    @Test
    void aConnectorMissingAFunctionOfItsAbiIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        Path source = Files.writeString(dir.resolve("partial.c"),
                "int kvt_abi_version(void) { return " + NativeAbi.VERSION + "; }\n");
        Path library = dir.resolve("libpartial.so");
        Process cc = new ProcessBuilder("cc", "-shared", "-fPIC", "-o", library.toString(), source.toString())
                .inheritIO().start();
        assumeTrue(cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0, "no C compiler to build a partial connector");
        assertThat(refusal(library).getMessage()).startsWith("mooncake_store: refused the native connector " + library
                + " (explicit path): an incomplete kvtier Mooncake connector: it exports no kvt_")
                .endsWith(", which ABI version " + NativeAbi.VERSION + " has");
    }

    @Test
    void theTestDoubleSpeaksThisAbi() {
        assertThat(NativeLibraryLocator.explicit(TestDouble.path()).load()).isNotNull();
    }

    @Test
    void theJavaSideAndTheHeaderAgreeOnTheVersion() throws Exception {
        // The connector's source, beside this module (the pom names it: native.source.dir).
        Path source = Path.of(System.getProperty("kvtier.native.source.dir", "../native"));
        String header = Files.readString(source.resolve("include/kvtier_mooncake.h"));
        Matcher m = Pattern.compile("#define KVT_ABI_VERSION (\\d+)").matcher(header);
        assertThat(m.find()).isTrue();
        assertThat(Integer.parseInt(m.group(1))).isEqualTo(NativeAbi.VERSION);
    }

    @Test
    void aMissingExplicitPathStillNamesTheBuildSwitch(@TempDir Path dir) {
        assertThatThrownBy(() -> NativeLibraryLocator.explicit(dir.resolve("nope.so")).load())
                .hasMessageContaining("no such file").hasMessageContaining("BUILD_MOONCAKE");
    }
}
