package io.kvtier.host;

import static io.kvtier.host.HostCli.kvtier;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.host.HostCli.Result;
import io.kvtier.spi.ObjectKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {
    @Test
    void validatePrintsOneJsonLinePerInstance() {
        Result r = kvtier("validate", "--l2-adapter", "{\"type\":\"memory\",\"capacity\":\"64 MiB\"}",
                "--l2-adapter", "{\"name\":\"b\",\"type\":\"memory\"}");
        assertThat(r.exit()).isZero();
        assertThat(r.out().lines()).containsExactly(
                "{\"config\":{\"capacity\":67108864},\"name\":\"memory-0\",\"type\":\"memory\"}",
                "{\"config\":{\"capacity\":1073741824},\"name\":\"b\",\"type\":\"memory\"}");
    }

    @Test
    void validateWithoutDeclarationsShowsTheEmbeddedDefault() {
        Result r = kvtier("validate");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("\"name\":\"memory\"");
    }

    @Test
    void malformedFlagsExitTwoWithLmcachesMessages() {
        assertUsageError(kvtier("validate", "--l2-adapter", "{oops"), "kvtier: Invalid JSON for --l2-adapter #1, column 2: ");
        assertUsageError(kvtier("validate", "--l2-adapter", "[1]"), "kvtier: --l2-adapter #1: expected a JSON object, got array");
        assertUsageError(kvtier("validate", "--l2-adapter", "{\"capacity\":1}"), "kvtier: --l2-adapter #1: missing 'type' field");
        assertUsageError(kvtier("validate", "--l2-adapter", "{\"type\":\"memory\"}", "--l2-adapter", "{\"type\":\"fs\"}"),
                "kvtier: --l2-adapter #2: unknown adapter type 'fs'. Known: ");
        assertUsageError(kvtier("validate", "--l2-adapter", "{\"type\":\"memory\",\"capacity\":-1}"),
                "kvtier: --l2-adapter #1, column 18 ('memory'): Invalid value at 'capacity': "
                        + "'-1' is negative; a size is 0 or more bytes\n");
    }

    private static void assertUsageError(Result r, String prefix) {
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith(prefix);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aHoconErrorNamesTheFileAndLine(@TempDir Path dir) throws Exception {
        Path conf = dir.resolve("bad.conf");
        Files.writeString(conf, "kvtier.l2.adapters = [\n  { type = memory, capacity = lots }\n]\n");
        assertUsageError(kvtier("validate", "-c", conf.toString()), "kvtier: " + conf + ":2 ('memory'): Invalid value at 'capacity'");
    }

    @Test
    void aHoconErrorNamesTheLineOfTheKeyNotOfTheEntry(@TempDir Path dir) throws Exception {
        Path conf = dir.resolve("bad.conf");
        Files.writeString(conf, "kvtier.l2.adapters = [\n  {\n    type = memory\n\n    capacity = lots\n  }\n]\n");
        assertUsageError(kvtier("validate", "-c", conf.toString()), "kvtier: " + conf + ":5 ('memory'): "
                + "Invalid value at 'capacity': No number in size-in-bytes value 'lots'\n");
    }

    @Test
    void aMistypedMooncakeKeyIsAWarningWithTheDocumentedKeyItResembles() {
        Result r = kvtier("validate", "--l2-adapter",
                "{\"type\":\"mooncake_store\",\"master_server_addr\":\"10.0.0.1:50051\",\"local_hostnme\":\"10.0.0.2\"}");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).isEqualTo("kvtier: warning: --l2-adapter #1, column 64 ('mooncake_store'): unknown key 'local_hostnme': "
                + "neither an option of mooncake_store nor a documented pass-through; did you mean 'local_hostname'? "
                + "(see: kvtier adapters mooncake_store)\n");
    }

    @Test
    void keyPrintsTheWireString() {
        Result r = kvtier("key", "--model", "llama", "--kv-rank", "255", "--hash", "00010203");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("llama@000000ff@0@00010203\n");
        assertThat(kvtier("key", "--model", "llama", "--kv-rank", "255", "--group", "5", "--salt", "alice",
                "--hash", "00010203").out()).isEqualTo("llama@000000ff@5@00010203@alice\n");
        String longest = "m".repeat(KeyOptions.MAX_MODEL_LENGTH) + "@00000001@0@" + "ab".repeat(KeyOptions.MAX_HASH_BYTES);
        assertThat(kvtier("key", "--model", "m".repeat(KeyOptions.MAX_MODEL_LENGTH), "--kv-rank", "1",
                "--hash", "ab".repeat(KeyOptions.MAX_HASH_BYTES)).out()).isEqualTo(longest + "\n");
        assertUsageError(kvtier("key", "--model", "a@b", "--kv-rank", "1", "--hash", "00"),
                "kvtier: model_name must not contain '@'");
        assertUsageError(kvtier("key", "--model", "m", "--kv-rank", "1", "--hash", "xyz"), "kvtier: --hash must be");
        assertUsageError(kvtier("key", "--model", "m"), "kvtier: Missing required options");
    }

    @Test
    void theLongestKeyTheOptionsAllowFitsMooncakesLimit() {
        String widest = "\u20ac"; // 3 bytes of UTF-8, the most one char takes
        Result r = kvtier("key", "--model", widest.repeat(KeyOptions.MAX_MODEL_LENGTH), "--kv-rank", "4294967295",
                "--group", String.valueOf(Long.MAX_VALUE), "--salt", widest.repeat(ObjectKey.MAX_SALT_LENGTH),
                "--hash", "ff".repeat(KeyOptions.MAX_HASH_BYTES));
        assertThat(r.exit()).as(r.err()).isZero();
        // Mooncake's HA master refuses a key longer than 4096 bytes (kMaxOpLogObjectKeySize).
        assertThat(r.out().strip().getBytes(StandardCharsets.UTF_8)).hasSize(3612);
    }

    @Test
    void adaptersListsTheBuiltInType() {
        Result r = kvtier("adapters");
        assertThat(r.exit()).isZero();
        assertThat(r.out().lines()).contains("memory\tmemory: an in-process tier bounded by capacity, "
                + "evicting the least recently used unlocked objects.");
    }

    @Test
    void adaptersWithATypePrintsItsReferenceConf() {
        Result r = kvtier("adapters", "memory");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("# memory: ").contains("capacity = 1 GiB").doesNotContain("# runtime:");
        Result mooncake = kvtier("adapters", "mooncake_store");
        assertThat(mooncake.exit()).as(mooncake.err()).isZero();
        assertThat(mooncake.out()).as("whether this build packaged a connector").containsPattern(
                "(?m)^# runtime: connector = (packaged \\(native/linux-x86_64/libkvtier_mooncake.so\\)|not packaged: .*BUILD_MOONCAKE=1.*)$");
        assertUsageError(kvtier("adapters", "fs"), "kvtier: unknown adapter type 'fs'. Known: ");
    }

    @Test
    void aDefaultWrittenOnlyInTheReferenceConfApplies() {
        Result r = kvtier("validate", "--l2-adapter", "{\"type\":\"memory\"}");
        assertThat(r.out()).isEqualTo("{\"config\":{\"capacity\":1073741824},\"name\":\"memory-0\",\"type\":\"memory\"}\n");
    }

    @Test
    void runVerifiesEveryChunkOnSeveralInstances() {
        Result r = kvtier("run", "--chunks", "40", "--chunk-size", "4 KiB", "--batch", "8", "--json",
                "--l2-adapter", "{\"name\":\"a\",\"type\":\"memory\"}", "--l2-adapter", "{\"name\":\"b\",\"type\":\"memory\"}");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"name\":\"a\"", "\"name\":\"b\"", "\"verified\":40", "\"passed\":true");
    }

    @Test
    void runFailsWhenTheTierCannotHoldTheChunks() {
        Result r = kvtier("run", "--chunks", "8", "--chunk-size", "4 KiB", "--batch", "4",
                "--l2-adapter", "{\"type\":\"memory\",\"capacity\":\"8 KiB\"}");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("FAILED").contains("verified 2");
    }

    @Test
    void runRejectsAnL1TooSmallForTheWorkload() {
        assertUsageError(kvtier("run", "--chunks", "8", "--chunk-size", "1 MiB", "--l1-size", "1 MiB"),
                "kvtier: --l1-size 1 MiB is too small");
    }

    @Test
    void putThenGetRoundTripsAFileButAFreshMemoryInstanceFindsNothing(@TempDir Path dir) throws Exception {
        byte[] bytes = new byte[12345];
        new Random(1).nextBytes(bytes);
        Path in = Files.write(dir.resolve("in.bin"), bytes);
        Path out = dir.resolve("out.bin");
        String[] key = {"--model", "llama", "--kv-rank", "0", "--hash", "0a0b"};
        Result put = kvtier(concat(new String[] {"put", "--in", in.toString()}, key));
        assertThat(put.exit()).as(put.err()).isZero();
        assertThat(put.out()).contains("stored llama@00000000@0@0a0b (12345 bytes) in memory");
        Result get = kvtier(concat(new String[] {"get", "--size", "12345", "--out", out.toString()}, key));
        assertThat(get.exit()).isEqualTo(1);
        assertThat(get.err()).isEqualTo("kvtier: not found: llama@00000000@0@0a0b in memory\n");
        assertThat(out).doesNotExist();
    }

    static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void putAndGetPickTheInstance(@TempDir Path dir) throws Exception {
        Path in = Files.write(dir.resolve("in.bin"), new byte[] {1, 2, 3});
        Result r = kvtier("put", "--in", in.toString(), "--model", "m", "--kv-rank", "0", "--hash", "01",
                "--l2-adapter", "{\"type\":\"memory\"}", "--l2-adapter", "{\"type\":\"memory\"}");
        assertUsageError(r, "kvtier: --instance is required when 2 instances are declared (memory-0, memory-1)");
        r = kvtier("put", "--in", in.toString(), "--model", "m", "--kv-rank", "0", "--hash", "01",
                "--instance", "memory-1", "--l2-adapter", "{\"type\":\"memory\"}", "--l2-adapter", "{\"type\":\"memory\"}");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).endsWith("in memory-1\n");
    }
}
