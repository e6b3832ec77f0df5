package io.kvtier.host.replay;

import static io.kvtier.host.HostCli.kvtier;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.host.HostCli.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input to replay, as BadInputCorpusTest has it for the other commands: each gives exit 2 and
 * one line on stderr, without a stack trace, that names the option or the file and line, and the
 * value. {@code {dir}} stands for the directory of the traces written before the rows run.
 */
class ReplayBadInputTest {
    private static final String GOOD = "{\"timestamp\": 0, \"hash_ids\": [1, 2]}\n";
    private static final String IDS = "hash_ids must be a list of block ids, whole numbers of at most 32 bits, ";

    @TempDir
    static Path dir;

    record Row(String says, List<String> args) {
        @Override
        public String toString() {
            return String.join(" ", args);
        }
    }

    @BeforeAll
    static void writeTraces() throws IOException {
        Files.writeString(dir.resolve("good.jsonl"), GOOD);
        Files.writeString(dir.resolve("empty.jsonl"), "");
        Files.writeString(dir.resolve("malformed.jsonl"), GOOD + "{\"timestamp\": 5, \"hash_ids\": [3\n");
        Files.writeString(dir.resolve("negative.jsonl"), "{\"timestamp\": -5, \"hash_ids\": [1]}\n");
        Files.writeString(dir.resolve("decreasing.jsonl"), "{\"timestamp\": 7, \"hash_ids\": [1]}\n"
                + "{\"timestamp\": 3, \"hash_ids\": [1]}\n");
        Files.writeString(dir.resolve("no-blocks.jsonl"), GOOD + GOOD + "{\"timestamp\": 9, \"hash_ids\": []}\n");
        Files.writeString(dir.resolve("no-ids.jsonl"), "{\"timestamp\": 9}\n");
        Files.writeString(dir.resolve("text-ids.jsonl"), "{\"timestamp\": 9, \"hash_ids\": [\"a\"]}\n");
        Files.writeString(dir.resolve("fraction-id.jsonl"), "{\"timestamp\": 9, \"hash_ids\": [1.5]}\n");
        Files.writeString(dir.resolve("long-id.jsonl"), "{\"timestamp\": 9, \"hash_ids\": [99999999999]}\n");
        Files.writeString(dir.resolve("fraction-time.jsonl"), "{\"timestamp\": 9.5, \"hash_ids\": [1]}\n");
        Files.writeString(dir.resolve("text-time.jsonl"), "{\"timestamp\": \"9\", \"hash_ids\": [1]}\n");
        Files.writeString(dir.resolve("blank-line.jsonl"), GOOD + "\n" + GOOD);
        Files.createDirectories(dir.resolve("a-directory"));
    }

    private static Row bad(String says, String... args) {
        List<String> all = new ArrayList<>(List.of("replay"));
        all.addAll(List.of(args));
        return new Row(says, all);
    }

    private static Row trace(String file, String says) {
        return bad("--trace {dir}/" + file + says, "--trace", "{dir}/" + file);
    }

    private static Row option(String says, String... args) {
        List<String> all = new ArrayList<>(List.of("--trace", "{dir}/good.jsonl"));
        all.addAll(List.of(args));
        return bad(says, all.toArray(String[]::new));
    }

    static Stream<Row> corpus() {
        return Stream.of(
                bad("Missing required option: '--trace=FILE'"),
                trace("missing.jsonl", ": no such file"),
                trace("a-directory", ": a directory, not a file"),
                trace("empty.jsonl", ": the trace is empty"),
                trace("malformed.jsonl", ":2: not a JSON object: '{\"timestamp\": 5, \"hash_ids\": [3'"),
                trace("negative.jsonl", ":1: timestamp -5 is negative"),
                trace("decreasing.jsonl", ":2: timestamp 3 is before the previous line's 7"),
                trace("no-blocks.jsonl", ":3: hash_ids is empty"),
                trace("no-ids.jsonl", ":1: " + IDS + "got nothing"),
                trace("text-ids.jsonl", ":1: " + IDS + "got '[\"a\"]'"),
                trace("fraction-id.jsonl", ":1: " + IDS + "got '[1.5]'"),
                trace("long-id.jsonl", ":1: " + IDS + "got '[99999999999]'"),
                trace("fraction-time.jsonl", ":1: timestamp must be a whole number of milliseconds, got '9.5'"),
                trace("text-time.jsonl", ":1: timestamp must be a whole number of milliseconds, got '\"9\"'"),
                trace("blank-line.jsonl", ":2: not a JSON object: ''"),
                option("--block-size must be from 24 bytes (a block names its id in its first bytes) to 2 GiB, got 0",
                        "--block-size", "0"),
                option("got 3 GiB", "--block-size", "3 GiB"),
                option("--block-size: No number in size-in-bytes value 'lots'", "--block-size", "lots"),
                option("--block-size 2 MiB is larger than instance 'memory-0' can hold: its capacity is 1 MiB",
                        "--block-size", "2 MiB", "--l2-adapter", "{\"type\":\"memory\",\"capacity\":\"1 MiB\"}"),
                option("--speed must be 'max' or a positive number (times real time), got '0'", "--speed", "0"),
                option("got 'fast'", "--speed", "fast"),
                option("got 'NaN'", "--speed", "NaN"),
                option("--concurrency must be positive, got 0", "--concurrency", "0"),
                option("--requests must be positive, got 0", "--requests", "0"),
                option("--capacity-blocks must be positive, got -1", "--capacity-blocks", "-1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void givesOneClearLineAndExit2(Row row) {
        Result r = kvtier(row.args().stream().map(a -> a.replace("{dir}", dir.toString())).toArray(String[]::new));

        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).startsWith("kvtier: ").contains(row.says().replace("{dir}", dir.toString()))
                .doesNotContain("Exception", "\tat ");
        assertThat(r.out()).isEmpty();
    }
}
