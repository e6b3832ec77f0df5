package io.kvtier.host.soak;

import static io.kvtier.host.HostCli.kvtier;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.host.HostCli.Result;
import org.junit.jupiter.api.Test;

class SoakCommandTest {
    @Test
    void aShortSoakOnTheMemoryAdapterVerifiesEverythingAndExitsZero() {
        Result r = kvtier("soak", "--duration", "1500ms", "--threads", "3", "--keys", "128", "--batch", "4",
                "--chunk-size", "4 KiB", "--seed", "7", "--progress-interval", "500ms",
                "--l2-adapter", "{\"name\":\"a\",\"type\":\"memory\"}", "--l2-adapter", "{\"name\":\"b\",\"type\":\"memory\"}");
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("a (memory): PASSED", "b (memory): PASSED", "fault windows: none",
                "soak PASSED: 0 corrupted, 0 lost, 0 errors in 2 instance(s)");
        assertThat(r.out()).containsPattern("load +ok [1-9]\\d*  missing \\d+  errors 0  verified [1-9]\\d*  corrupted 0");
        assertThat(r.err()).contains("[soak ", "] a  store ", "errors 0").doesNotContain("UNHEALTHY");
        assertThat(r.err()).containsPattern("errors 0  wait max \\d+ ms  waiting \\d+ ms");
        assertThat(r.out()).containsPattern("longest batch wait \\d+ ms");
    }

    @Test
    void theJsonReportIsOneLineWithEveryOperation() {
        Result r = kvtier("soak", "--duration", "1s", "--threads", "2", "--keys", "64", "--chunk-size", "1 KiB",
                "--seed", "7", "--json", "--l2-adapter", "{\"type\":\"memory\"}");
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out().lines()).hasSize(1);
        assertThat(r.out()).startsWith("{").contains("\"passed\":true", "\"name\":\"memory-0\"", "\"store\":{",
                "\"lookup\":{", "\"load\":{", "\"delete\":{", "\"fault_windows\":[]", "\"longest_wait_ms\":", "\"every_5s\":[{", "\"stopped_early\":false");
    }

    @Test
    void anInstanceTooSmallForTheKeysIsWarnedAboutUnlessTheSoakIsToldItEvicts() {
        String small = "{\"type\":\"memory\",\"capacity\":\"16 KiB\"}";
        Result warned = kvtier("soak", "--duration", "500ms", "--threads", "2", "--keys", "64", "--batch", "4",
                "--chunk-size", "1 KiB", "--seed", "7", "--l2-adapter", small);
        assertThat(warned.err()).contains("kvtier: warning: memory-0 holds 16 KiB, less than --keys x --chunk-size (64 KiB): "
                + "what it evicts will be reported as lost; with --evicting, as evicted");

        Result evicting = kvtier("soak", "--evicting", "--duration", "500ms", "--threads", "2", "--keys", "64", "--batch", "4",
                "--chunk-size", "1 KiB", "--seed", "7", "--l2-adapter", small);
        assertThat(evicting.exit()).as(evicting.out() + evicting.err()).isZero();
        assertThat(evicting.err()).doesNotContain("warning");
        assertThat(evicting.out()).containsPattern("load +ok \\d+ .*  lost 0  evicted \\d+  missing after fault")
                .containsPattern("soak PASSED: 0 corrupted, 0 lost, \\d+ evicted, 0 errors in 1 instance\\(s\\)");
    }

    @Test
    void badOptionsAreUsageErrorsNamingTheOptionAndValue() {
        assertUsageError(kvtier("soak", "--duration", "soon"), "kvtier: --duration must be a positive duration such as 30s, 10m or PT1H, got 'soon'");
        assertUsageError(kvtier("soak", "--duration", "-5s"), "kvtier: --duration must be a positive duration");
        assertUsageError(kvtier("soak", "--mix", "store=40,read=3"), "kvtier: --mix must be weights such as store=40,lookup=20,load=35,delete=5, got 'store=40,read=3': unknown operation 'read'");
        assertUsageError(kvtier("soak", "--mix", "store=0"), "kvtier: --mix must be weights");
        assertUsageError(kvtier("soak", "--threads", "0"), "kvtier: --threads must be positive, got 0");
        assertUsageError(kvtier("soak", "--chunk-size", "8"), "kvtier: --chunk-size must be between 24 bytes and 2 GiB, got '8'");
        assertUsageError(kvtier("soak", "--keys", "10"), "kvtier: --keys 10 must be at least --threads x --batch (4 x 8)");
        assertUsageError(kvtier("soak", "--metrics-port", "70000"), "kvtier: --metrics-port must be a port from 0 to 65535, got 70000");
        assertUsageError(kvtier("soak", "--l2-adapter", "{\"type\":\"nope\"}"), "kvtier: --l2-adapter #1: unknown adapter type 'nope'");
    }

    private static void assertUsageError(Result r, String prefix) {
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith(prefix);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.out()).isEmpty();
    }
}
