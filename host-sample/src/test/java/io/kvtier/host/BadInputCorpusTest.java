package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.host.HostCli.Result;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input of every kind, each run through the whole CLI in this JVM. Every row must give its exit
 * code (2 for a usage or configuration error, 1 for a runtime failure), exactly one line on stderr,
 * no stack trace, and a message that names what is wrong and where ({@code says}). {@code {dir}} in
 * an argument stands for the directory of the files written before the rows run.
 */
class BadInputCorpusTest {
    private static final int USAGE = 2;
    private static final int FAILED = 1;
    /** A value far longer than any line should quote, yet within the declaration size limit. */
    private static final String LONG_VALUE = "a".repeat(500_000);

    @TempDir
    static Path dir;

    record Row(int exit, String says, List<String> args) {
        @Override
        public String toString() {
            String shown = args.isEmpty() ? "(no arguments)" : String.join(" ", args);
            return shown.length() > 100 ? shown.substring(0, 100) + "..." : shown;
        }
    }

    private static Row bad(int exit, String says, String... args) {
        return new Row(exit, says, List.of(args));
    }

    /** {@code validate -c {dir}/<file>} */
    private static Row file(String file, String says) {
        return bad(USAGE, "{dir}/" + file + says, "validate", "-c", "{dir}/" + file);
    }

    /** {@code validate --l2-adapter <json>} */
    private static Row flag(String json, String says) {
        return bad(USAGE, says, "validate", "--l2-adapter", json);
    }

    /** A mooncake_store declaration that is good but for {@code extra} (JSON members, or "" for none). */
    private static Row mooncake(String extra, String says) {
        String master = extra.contains("master_server_addr") ? "" : "\"master_server_addr\":\"10.0.0.1:50051\",";
        return flag("{\"type\":\"mooncake_store\"," + master + extra + "}", says);
    }

    private static Row key(String says, String... options) {
        return bad(USAGE, says, concat(new String[] {"key"}, options));
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static final String[] GOOD_KEY = {"--model", "m", "--kv-rank", "1", "--hash", "00"};

    private static String hocon(String entry) {
        return "kvtier.l2.adapters = [\n  { " + entry + " }\n]\n";
    }

    @BeforeAll
    static void writeFiles() throws IOException, InterruptedException {
        write("deep-objects.conf", "kvtier.l2.adapters = [" + "{a:".repeat(3000) + "1" + "}".repeat(3000) + "]");
        write("deep-lists.conf", hocon("type = memory, x = " + "[".repeat(3000) + "]".repeat(3000)));
        write("long-path.conf", hocon("type = memory") + "x.".repeat(20000) + "y = 1\n");
        write("long-substitution.conf", hocon("type = memory") + "y = ${" + "a.".repeat(20000) + "b}\n");
        write("unclosed-brace.conf", "kvtier.l2.adapters = [\n  { type = memory\n");
        write("unclosed-list.conf", "kvtier.l2.adapters = [\n  { type = memory }\n");
        write("stray-brace.conf", "kvtier.l2.adapters = [ ]\n}\n");
        write("crossed.conf", "kvtier.l2.adapters = [\n  { type = memory ]\n}\n");
        write("unclosed-string.conf", hocon("type = memory, name = \"a } ]"));
        write("unclosed-triple-string.conf", hocon("type = memory, name = \"\"\"a } ]"));
        write("include-file.conf", hocon("type = memory") + "include file(\"/dev/zero\")\n");
        write("include-plain.conf", hocon("type = memory") + "include \"other.conf\"\n");
        write("include-url.conf", hocon("type = memory") + "include url(\"http://127.0.0.1:9/x.conf\")\n");
        write("null-list.conf", "kvtier.l2.adapters = null\n");
        write("string-list.conf", "kvtier.l2.adapters = memory\n");
        write("number-list.conf", "kvtier.l2.adapters = 42\n");
        write("object-list.conf", "kvtier.l2.adapters { type = memory }\n");
        write("no-list.conf", "kvtier { }\n");
        write("empty.conf", "");
        write("empty-list.conf", "kvtier.l2.adapters = []\n");
        write("empty-list-late.conf", "master = \"m:1\"\nkvtier.l2.adapters = [\n]\n");
        write("entry-number.conf", "kvtier.l2.adapters = [\n  42\n]\n");
        write("entry-string.conf", "kvtier.l2.adapters = [\n  \"memory\"\n]\n");
        write("entry-list.conf", "kvtier.l2.adapters = [\n  [ memory ]\n]\n");
        write("no-type.conf", hocon("capacity = 1 GiB"));
        write("type-number.conf", hocon("type = 5"));
        write("type-empty.conf", hocon("type = \"\""));
        write("type-unknown.conf", hocon("type = fs"));
        write("name-empty.conf", hocon("type = memory, name = \"\""));
        write("name-newline.conf", hocon("type = memory, name = \"a\\nb\""));
        write("name-escape.conf", hocon("type = memory, name = \"a\\u001b[31m\""));
        write("name-list.conf", hocon("type = memory, name = [a]"));
        write("name-long.conf", hocon("type = memory, name = " + "n".repeat(65)));
        write("name-twice.conf", "kvtier.l2.adapters = [\n  { type = memory, name = a }\n  { type = memory, name = a }\n]\n");
        write("capacity-lots.conf", "kvtier.l2.adapters = [\n  {\n    type = memory\n    capacity = lots\n  }\n]\n");
        write("capacity-fraction.conf", hocon("type = memory, capacity = 1.5"));
        write("capacity-fraction-string.conf", hocon("type = memory, capacity = \"1.5 B\""));
        write("capacity-10eib.conf", hocon("type = memory, capacity = 10 EiB"));
        write("capacity-1e400.conf", hocon("type = memory, capacity = 1e400"));
        write("capacity-20-digits.conf", hocon("type = memory, capacity = 99999999999999999999"));
        write("capacity-negative.conf", hocon("type = memory, capacity = -1"));
        write("capacity-zero.conf", hocon("type = memory, capacity = 0"));
        write("capacity-list.conf", hocon("type = memory, capacity = [1]"));
        write("capacity-bool.conf", hocon("type = memory, capacity = true"));
        write("capacity-null.conf", hocon("type = memory, capacity = null"));
        write("capacity-unit.conf", hocon("type = memory, capacity = 5 lots"));
        write("capacity-megabyte.conf", hocon("type = memory, capacity = \"" + LONG_VALUE + "\""));
        write("unknown-key.conf", hocon("type = memory, sise = 5"));
        write("unresolved.conf", hocon("type = memory, capacity = ${nope}"));
        write("two-equals.conf", hocon("type = memory, a = = b"));
        write("mooncake-protocol.conf", "kvtier.l2.adapters = [\n  {\n    type = mooncake_store\n"
                + "    master_server_addr = \"m:1\"\n    protocol = udp\n  }\n]\n");
        write("mooncake-no-master.conf", hocon("type = mooncake_store"));
        write("mooncake-segment.conf", "kvtier.l2.adapters = [\n  {\n    type = mooncake_store\n"
                + "    master_server_addr = \"m:1\"\n    global_segment_size = 16MB\n  }\n]\n");
        Files.write(dir.resolve("utf16le.conf"), concatBytes(new byte[] {(byte) 0xFF, (byte) 0xFE},
                hocon("type = memory").getBytes(StandardCharsets.UTF_16LE)));
        Files.write(dir.resolve("utf16be.conf"), concatBytes(new byte[] {(byte) 0xFE, (byte) 0xFF},
                hocon("type = memory").getBytes(StandardCharsets.UTF_16BE)));
        Files.write(dir.resolve("utf16-no-mark.conf"), hocon("type = memory").getBytes(StandardCharsets.UTF_16LE));
        Files.write(dir.resolve("latin1.conf"), hocon("type = memory, name = \"caf\u00e9\"").getBytes(StandardCharsets.ISO_8859_1));
        write("oversized.conf", "#".repeat(1 << 20) + "\n");
        Files.createDirectories(dir.resolve("a-directory"));
        Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve("fifo").toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        write("empty.bin", "");
        write("small.bin", "abc");
        try (RandomAccessFile sparse = new RandomAccessFile(dir.resolve("3gib.bin").toFile(), "rw")) {
            sparse.setLength(3L << 30);
        }
    }

    private static void write(String name, String text) throws IOException {
        Files.writeString(dir.resolve(name), text);
    }

    private static byte[] concatBytes(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    static Stream<Row> corpus() {
        List<Row> rows = new ArrayList<>();
        // Declaration files: what they are, their size, encoding and nesting.
        rows.add(file("nope.conf", ": no such file"));
        rows.add(file("a-directory", ": is a directory, not a file"));
        rows.add(file("fifo", ": is not a regular file (a FIFO, socket or device)"));
        rows.add(bad(USAGE, "/dev/null: is not a regular file", "validate", "-c", "/dev/null"));
        rows.add(file("oversized.conf", ": is 1048577 bytes, more than the limit of 1048576"));
        rows.add(file("utf16le.conf", ": is UTF-16 text"));
        rows.add(file("utf16be.conf", ": is UTF-16 text"));
        rows.add(file("utf16-no-mark.conf", ":1: contains a NUL byte: UTF-16 or binary, not UTF-8 text"));
        rows.add(file("latin1.conf", ": is not UTF-8 text"));
        rows.add(file("deep-objects.conf", ":1: nested more than 64 levels deep"));
        rows.add(file("deep-lists.conf", ":2: nested more than 64 levels deep"));
        rows.add(file("long-path.conf", ":4: nested more than 64 levels deep"));
        rows.add(file("long-substitution.conf", ":4: nested more than 64 levels deep"));
        rows.add(file("unclosed-brace.conf", ":2: '{' is never closed"));
        rows.add(file("unclosed-list.conf", ":1: '[' is never closed"));
        rows.add(file("stray-brace.conf", ":2: '}' closes nothing"));
        rows.add(file("crossed.conf", ":2: ']' where the '{' at line 2 needs '}'"));
        rows.add(file("unclosed-string.conf", ":2: the string that starts here is not closed on its line"));
        rows.add(file("unclosed-triple-string.conf", ":2: the string that starts here is not closed on its line"));
        rows.add(file("include-file.conf", ": include file(\"/dev/zero\") is not supported in declarations: pass each file with its own -c"));
        rows.add(file("include-plain.conf", ": include \"other.conf\" is not supported in declarations"));
        rows.add(file("include-url.conf", ": include url(\"http://127.0.0.1:9/x.conf\") is not supported in declarations"));
        // The list and its entries.
        rows.add(file("null-list.conf", ":1: 'kvtier.l2.adapters' must be a list, got null"));
        rows.add(file("string-list.conf", ":1: 'kvtier.l2.adapters' must be a list, got string"));
        rows.add(file("number-list.conf", ":1: 'kvtier.l2.adapters' must be a list, got number"));
        rows.add(file("object-list.conf", ":1: 'kvtier.l2.adapters' must be a list, got object"));
        rows.add(file("no-list.conf", ": missing list 'kvtier.l2.adapters'"));
        rows.add(file("empty.conf", ": missing list 'kvtier.l2.adapters'"));
        rows.add(file("empty-list.conf", ":1: 'kvtier.l2.adapters' is empty: declare at least one adapter"));
        rows.add(file("empty-list-late.conf", ":2: 'kvtier.l2.adapters' is empty: declare at least one adapter"));
        rows.add(bad(USAGE, "{dir}/empty-list.conf:1: 'kvtier.l2.adapters' is empty", "run", "-c", "{dir}/empty-list.conf"));
        rows.add(bad(USAGE, "{dir}/empty-list.conf:1: 'kvtier.l2.adapters' is empty", "serve", "-c", "{dir}/empty-list.conf"));
        rows.add(bad(USAGE, "{dir}/type-unknown.conf:2: unknown adapter type 'fs'", "serve", "-c", "{dir}/type-unknown.conf"));
        rows.add(bad(USAGE, "Invalid JSON for --l2-adapter #1, column 2: ", "serve", "--l2-adapter", "{oops"));
        rows.add(bad(USAGE, "Unknown options: '--port', '1'", "serve", "--port", "1"));
        rows.add(bad(USAGE, "--http must be HOST:PORT, e.g. 127.0.0.1:9464 (port 0 = any free port), or off, got '9464'", "serve", "--http", "9464"));
        rows.add(bad(USAGE, "--http must be HOST:PORT, e.g. 127.0.0.1:9464 (port 0 = any free port), or off, got '127.0.0.1:'", "serve", "--http", "127.0.0.1:"));
        rows.add(bad(USAGE, "--http must be HOST:PORT, e.g. 127.0.0.1:9464 (port 0 = any free port), or off, got ':9464'", "serve", "--http", ":9464"));
        rows.add(bad(USAGE, "--http must be HOST:PORT, e.g. 127.0.0.1:9464 (port 0 = any free port), or off, got '127.0.0.1:http'", "serve", "--http", "127.0.0.1:http"));
        rows.add(bad(USAGE, "--http must be HOST:PORT, e.g. 127.0.0.1:9464 (port 0 = any free port), or off, got '::1:9464'", "serve", "--http", "::1:9464"));
        rows.add(bad(USAGE, "--http must be HOST:PORT, e.g. 127.0.0.1:9464 (port 0 = any free port), or off, got ''", "serve", "--http", ""));
        rows.add(bad(USAGE, "--http '127.0.0.1:70000': the port must be from 0 to 65535", "serve", "--http", "127.0.0.1:70000"));
        rows.add(bad(USAGE, "Missing required parameter for option '--http' (HOST:PORT)", "serve", "--http"));
        // TEST-NET-1 (RFC 5737): no interface of a test machine holds it.
        rows.add(bad(USAGE, "--http 192.0.2.1:9464: cannot listen on 192.0.2.1:9464: ", "serve", "--http", "192.0.2.1:9464"));
        rows.add(bad(USAGE, "{dir}/empty-list.conf:1: 'kvtier.l2.adapters' is empty", "run", "-c", "{dir}/empty-list.conf",
                "--l2-adapter", "{\"type\":\"memory\"}"));
        rows.add(file("entry-number.conf", ":2: expected an object, got number"));
        rows.add(file("entry-string.conf", ":2: expected an object, got string"));
        rows.add(file("entry-list.conf", ":2: expected an object, got array"));
        rows.add(file("no-type.conf", ":2: missing 'type' field"));
        rows.add(file("type-number.conf", ":2: 'type' must be a non-empty string, got 5"));
        rows.add(file("type-empty.conf", ":2: 'type' must be a non-empty string, got \"\""));
        rows.add(file("type-unknown.conf", ":2: unknown adapter type 'fs'. Known: memory, mooncake_store"));
        rows.add(file("name-empty.conf", ":2: 'name' must be a non-empty string without control characters, got \"\""));
        rows.add(file("name-newline.conf", ":2: 'name' must be a non-empty string without control characters, got \"a\\nb\""));
        rows.add(file("name-escape.conf", ":2: 'name' must be a non-empty string without control characters, got \"a\\u001b[31m\""));
        rows.add(file("name-list.conf", ":2: 'name' must be a non-empty string without control characters, got [\"a\"]"));
        rows.add(file("name-twice.conf", ":3: duplicate adapter name 'a' (first declared at {dir}/name-twice.conf:2)"));
        rows.add(file("unresolved.conf", ":2: Could not resolve substitution to a value: ${nope}"));
        rows.add(file("two-equals.conf", ":2: Expecting a value but got wrong token: '='"));
        // Byte sizes in files: exact or refused, never rounded or clamped.
        rows.add(file("capacity-lots.conf", ":4 ('memory'): Invalid value at 'capacity': No number in size-in-bytes value 'lots'"));
        rows.add(file("capacity-fraction.conf", ":2 ('memory'): Invalid value at 'capacity': '1.5' is not a whole number of bytes"));
        rows.add(file("capacity-fraction-string.conf", ":2 ('memory'): Invalid value at 'capacity': '1.5 B' is not a whole number of bytes"));
        rows.add(file("capacity-10eib.conf", ":2 ('memory'): Invalid value at 'capacity': '10 EiB' is out of range"));
        rows.add(file("capacity-1e400.conf", ":2 ('memory'): Invalid value at 'capacity': the number is out of range"));
        rows.add(file("capacity-20-digits.conf", ":2 ('memory'): Invalid value at 'capacity': '99999999999999999999' is out of range"));
        rows.add(file("capacity-negative.conf", ":2 ('memory'): Invalid value at 'capacity': '-1' is negative"));
        rows.add(file("capacity-zero.conf", ":2 ('memory'): capacity must be positive, got 0"));
        rows.add(file("capacity-list.conf", ":2 ('memory'): Invalid value at 'capacity': expected a byte size such as 67108864 or \"64 MiB\", got array"));
        rows.add(file("capacity-bool.conf", ":2 ('memory'): Invalid value at 'capacity': expected a byte size such as 67108864 or \"64 MiB\", got boolean"));
        rows.add(file("capacity-null.conf", ":2 ('memory'): Invalid value at 'capacity': expected a byte size such as 67108864 or \"64 MiB\", got null"));
        rows.add(file("capacity-unit.conf", ":2 ('memory'): Invalid value at 'capacity': Could not parse size-in-bytes unit 'lots'"));
        rows.add(file("capacity-megabyte.conf", ":2 ('memory'): Invalid value at 'capacity': No number in size-in-bytes value 'aaaa"));
        rows.add(file("unknown-key.conf", ":2 ('memory'): unknown key 'sise' (memory takes: capacity)"));
        rows.add(file("mooncake-protocol.conf", ":5 ('mooncake_store'): protocol must be tcp or rdma, got \"udp\""));
        rows.add(file("mooncake-no-master.conf", ":2 ('mooncake_store'): master_server_addr is required"));
        rows.add(file("mooncake-segment.conf", ":5 ('mooncake_store'): global_segment_size must be a non-negative integer number of bytes"));

        // --l2-adapter: JSON syntax, with the column.
        rows.add(flag("{oops", "Invalid JSON for --l2-adapter #1, column 2: "));
        rows.add(flag("{\"type\":\"memory\",}", "Invalid JSON for --l2-adapter #1, column 18: expecting a field name after a comma"));
        rows.add(flag("{'type':'memory'}", "Invalid JSON for --l2-adapter #1, column 2: "));
        rows.add(flag("{\"type\" \"memory\"}", "Invalid JSON for --l2-adapter #1, column 9: "));
        rows.add(flag("{\"type\":memory}", "Invalid JSON for --l2-adapter #1, column 9: "));
        rows.add(flag("{\"type\":\"memory\"} extra", "Invalid JSON for --l2-adapter #1, column 19: "));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":NaN}", "Invalid JSON for --l2-adapter #1, column 29: "));
        rows.add(flag("{\"type\":\"memory\" // comment\n}", "Invalid JSON for --l2-adapter #1, line 1, column 18: "));
        rows.add(flag("", "--l2-adapter #1: expected a JSON object, got no JSON value: ''"));
        rows.add(flag("   ", "--l2-adapter #1: expected a JSON object, got no JSON value: ''"));
        rows.add(flag("[1]", "--l2-adapter #1: expected a JSON object, got array"));
        rows.add(flag("\"memory\"", "--l2-adapter #1: expected a JSON object, got string"));
        rows.add(flag("42", "--l2-adapter #1: expected a JSON object, got number"));
        rows.add(flag("true", "--l2-adapter #1: expected a JSON object, got boolean"));
        rows.add(flag("null", "--l2-adapter #1: expected a JSON object, got null"));
        rows.add(flag("{\"type\":\"memory\",\"x\":" + "[".repeat(5000) + "]".repeat(5000) + "}",
                "--l2-adapter #1, column 85: nested more than 64 levels deep"));
        rows.add(flag("{\"a\":".repeat(100) + "1" + "}".repeat(100), "--l2-adapter #1, column 321: nested more than 64 levels deep"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":12345678901234567890}",
                "--l2-adapter #1, column 29: the integer 12345678901234567890 is out of range"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":-12345678901234567890}",
                "--l2-adapter #1, column 29: the integer -12345678901234567890 is out of range"));
        rows.add(flag("{\"type\":\"memory\",\"x\":\"" + "y".repeat((1 << 20) + 1) + "\"}",
                "--l2-adapter #1: is 1048601 characters long, more than the limit of 1048576"));
        // --l2-adapter: the declaration.
        rows.add(flag("{}", "--l2-adapter #1: missing 'type' field"));
        rows.add(flag("{\"capacity\":1}", "--l2-adapter #1: missing 'type' field"));
        rows.add(flag("{\"type\":\"\"}", "--l2-adapter #1, column 2: 'type' must be a non-empty string, got \"\""));
        rows.add(flag("{\"type\":null}", "--l2-adapter #1, column 2: 'type' must be a non-empty string, got null"));
        rows.add(flag("{\"type\":[\"memory\"]}", "--l2-adapter #1, column 2: 'type' must be a non-empty string, got [\"memory\"]"));
        rows.add(flag("{\"type\":{\"a\":1}}", "--l2-adapter #1, column 2: 'type' must be a non-empty string, got {\"a\":1}"));
        rows.add(flag("{\"type\":\"fs\"}", "--l2-adapter #1: unknown adapter type 'fs'. Known: memory, mooncake_store"));
        rows.add(flag("{\"type\":\"Memory\"}", "--l2-adapter #1: unknown adapter type 'Memory'"));
        rows.add(flag("{\"type\":\"" + LONG_VALUE + "\"}", "--l2-adapter #1: unknown adapter type 'aaaa"));
        rows.add(flag("{\"type\":\"memory\",\"name\":\"\"}", "--l2-adapter #1, column 18: 'name' must be a non-empty string"));
        rows.add(flag("{\"type\":\"memory\",\"name\":\" \"}", "--l2-adapter #1, column 18: 'name' must be a non-empty string"));
        rows.add(flag("{\"type\":\"memory\",\"name\":7}", "--l2-adapter #1, column 18: 'name' must be a non-empty string without control characters, got 7"));
        rows.add(flag("{\"type\":\"memory\",\"name\":\"a\\nb\"}", "--l2-adapter #1, column 18: 'name' must be a non-empty string without control characters, got \"a\\nb\""));
        rows.add(flag("{\"type\":\"memory\",\"name\":\"a\\u0000b\"}", "--l2-adapter #1, column 18: 'name' must be a non-empty string without control characters, got \"a\\u0000b\""));
        rows.add(flag("{\"type\":\"memory\",\"name\":\"\\r\"}", "--l2-adapter #1, column 18: 'name' must be a non-empty string without control characters, got \"\\r\""));
        rows.add(flag("{\"type\":\"memory\",\"name\":\"" + "n".repeat(120_000) + "\"}",
                "--l2-adapter #1, column 18: 'name' must be at most 64 characters, got 120000: \"nnnn"));
        rows.add(flag("{\"type\":\"memory\",\"name\":\"" + "n".repeat(65) + "\"}",
                "--l2-adapter #1, column 18: 'name' must be at most 64 characters, got 65: \"" + "n".repeat(65) + "\""));
        rows.add(file("name-long.conf", ":2: 'name' must be at most 64 characters, got 65"));
        rows.add(bad(USAGE, "--l2-adapter #2: duplicate adapter name 'a' (first declared at --l2-adapter #1)", "validate",
                "--l2-adapter", "{\"type\":\"memory\",\"name\":\"a\"}", "--l2-adapter", "{\"type\":\"memory\",\"name\":\"a\"}"));
        rows.add(bad(USAGE, "--l2-adapter #2: duplicate adapter name 'memory-1'", "validate",
                "--l2-adapter", "{\"type\":\"memory\",\"name\":\"memory-1\"}", "--l2-adapter", "{\"type\":\"memory\"}"));
        rows.add(bad(USAGE, "--l2-adapter #2: unknown adapter type 'fs'", "validate",
                "--l2-adapter", "{\"type\":\"memory\"}", "--l2-adapter", "{\"type\":\"fs\"}"));
        // --l2-adapter: byte sizes, exact or refused.
        String at = "--l2-adapter #1, column 18 ('memory'): Invalid value at 'capacity': ";
        rows.add(flag("{\"type\":\"memory\",\"capacity\":1.5}", at + "'1.5' is not a whole number of bytes"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"1.5\"}", at + "'1.5' is not a whole number of bytes"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":1e-3}", at + "'0.001' is not a whole number of bytes"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":1E400}", at + "the number is out of range"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"10 EiB\"}", at + "'10 EiB' is out of range: the largest size is 9223372036854775807 bytes (8 EiB - 1)"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"8 EiB\"}", at + "'8 EiB' is out of range"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"9223372036854775808\"}", at + "'9223372036854775808' is out of range"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"1 YiB\"}", at + "'1 YiB' is out of range"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"1e30\"}", at + "'1e30' is out of range"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":-1}", at + "'-1' is negative; a size is 0 or more bytes"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"-1 KiB\"}", at + "'-1 KiB' is negative"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"lots\"}", at + "No number in size-in-bytes value 'lots'"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"\"}", at + "No number in size-in-bytes value ''"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"5 lots\"}", at + "Could not parse size-in-bytes unit 'lots'"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"1.2.3 KiB\"}", at + "Could not parse size-in-bytes number '1.2.3'"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"0x10\"}", at + "Could not parse size-in-bytes number '0x10'"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":true}", at + "expected a byte size such as 67108864 or \"64 MiB\", got boolean"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":null}", at + "expected a byte size such as 67108864 or \"64 MiB\", got null"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":{\"a\":1}}", at + "expected a byte size such as 67108864 or \"64 MiB\", got object"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":[1]}", at + "expected a byte size such as 67108864 or \"64 MiB\", got array"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":0}", "--l2-adapter #1, column 18 ('memory'): capacity must be positive, got 0"));
        rows.add(flag("{\"type\":\"memory\",\"capacity\":\"" + LONG_VALUE + "\"}", at + "No number in size-in-bytes value 'aaaa"));
        rows.add(flag("{\"type\":\"memory\",\"sise\":5}", "--l2-adapter #1, column 18 ('memory'): unknown key 'sise' (memory takes: capacity)"));
        rows.add(flag("{\"type\":\"memory\",\"" + LONG_VALUE + "\":5}", "--l2-adapter #1, column 18 ('memory'): unknown key 'aaaa"));

        // mooncake_store: LMCache's own keys.
        String mc = "--l2-adapter #1, column ";
        rows.add(mooncake("\"num_workers\":0", "('mooncake_store'): num_workers must be a positive integer, got 0"));
        rows.add(mooncake("\"num_workers\":-1", "('mooncake_store'): num_workers must be a positive integer, got -1"));
        rows.add(mooncake("\"num_workers\":1099511627776", "('mooncake_store'): num_workers must be at most 1024, got 1099511627776"));
        rows.add(mooncake("\"num_workers\":\"many\"", "('mooncake_store'): num_workers must be a positive integer, got \"many\""));
        rows.add(mooncake("\"num_workers\":1.5", "('mooncake_store'): num_workers must be a positive integer, got 1.5"));
        rows.add(mooncake("\"num_workers\":null", "('mooncake_store'): num_workers must be a positive integer, got null"));
        rows.add(mooncake("\"per_op_workers\":{\"fetch\":1}", "('mooncake_store'): unknown lane key in per_op_workers: 'fetch'"));
        rows.add(mooncake("\"per_op_workers\":{\"lookup\":0}", "('mooncake_store'): per_op_workers['lookup'] must be a positive integer, got 0"));
        rows.add(mooncake("\"per_op_workers\":{\"lookup\":\"2\"}", "('mooncake_store'): per_op_workers['lookup'] must be an integer, got string"));
        rows.add(mooncake("\"per_op_workers\":[1]", "('mooncake_store'): per_op_workers must be an object, got array"));
        rows.add(mooncake("\"replica_num\":-1", "('mooncake_store'): replica_num must be a non-negative integer, got -1"));
        rows.add(mooncake("\"replica_num\":\"2\"", "('mooncake_store'): replica_num must be a non-negative integer, got \"2\""));
        rows.add(mooncake("\"nof_replica_num\":4294967296", "('mooncake_store'): nof_replica_num must be a non-negative integer, got 4294967296"));
        rows.add(mooncake("\"eviction\":\"LRU\"", "('mooncake_store'): eviction must be an object, got string"));
        rows.add(mooncake("\"eviction\":{\"eviction_policy\":\"FIFO\"}", "('mooncake_store'): "));
        rows.add(mooncake("\"eviction\":{\"eviction_policy\":\"LRU\",\"eviction_ratio\":7}", "('mooncake_store'): eviction.eviction_ratio must be a number in (0, 1], got 7.0"));
        rows.add(mooncake("\"eviction\":{\"eviction_policy\":\"LRU\",\"ratio\":0.5}", "('mooncake_store'): unknown key in eviction: 'ratio'"));
        rows.add(mooncake("\"master_server_address\":\"m:1\"", "('mooncake_store'): unknown key 'master_server_address'"));
        rows.add(mooncake("\"device_name\":\"mlx5_0\"", "('mooncake_store'): unknown key 'device_name'"));
        rows.add(mooncake("\"rdma_devices\":[\"mlx5_0\"]", "('mooncake_store'): rdma_devices must be a string, number or boolean, got array"));
        rows.add(mooncake("\"metadata_server\":{\"a\":1}", "('mooncake_store'): metadata_server must be a string, number or boolean, got object"));
        // mooncake_store: Mooncake's own keys, certainly wrong.
        rows.add(mooncake("\"protocol\":\"udp\"", mc + "64 ('mooncake_store'): protocol must be tcp or rdma, got \"udp\""));
        rows.add(mooncake("\"protocol\":\"\"", "('mooncake_store'): protocol must be tcp or rdma, got \"\""));
        rows.add(mooncake("\"protocol\":\"tcp \"", "('mooncake_store'): protocol must be tcp or rdma, got \"tcp \""));
        rows.add(mooncake("\"protocol\":\"rdma,tcp\"", "('mooncake_store'): protocol must be tcp or rdma, got \"rdma,tcp\""));
        rows.add(mooncake("\"protocol\":5", "('mooncake_store'): protocol must be tcp or rdma, got 5"));
        rows.add(mooncake("\"protocol\":true", "('mooncake_store'): protocol must be tcp or rdma, got true"));
        rows.add(flag("{\"type\":\"mooncake_store\"}",
                "--l2-adapter #1 ('mooncake_store'): master_server_addr is required: the mooncake_master's host:port"));
        for (String master : List.of("\"localhost\"", "\"localhost:\"", "\":50051\"", "\"m:0\"", "\"m:65536\"", "\"m:port\"",
                "\"m :1\"", "\"\"", "50051", "true", "\"m:1:2\"", "\"[::1:50051\"", "\"m1,m2:50051\"")) {
            rows.add(mooncake("\"master_server_addr\":" + master, mc + "26 ('mooncake_store'): master_server_addr must be "
                    + "the mooncake_master's host:port, e.g. \"10.0.0.1:50051\", or an HA backend: etcd://host:port;host:port..., "
                    + "redis://host:port or k8s://namespace/lease, got " + master));
        }
        // The HA backends' forms, as Mooncake's client parses them.
        String etcd = "('mooncake_store'): master_server_addr etcd://... must list the etcd endpoints as host:port, separated "
                + "by ';' or ',', e.g. \"etcd://10.0.0.1:2379;10.0.0.2:2379\"; ";
        rows.add(mooncake("\"master_server_addr\":\"etcd://\"", etcd + "it lists none, got \"etcd://\""));
        rows.add(mooncake("\"master_server_addr\":\"etcd://10.0.0.1:2379;10.0.0.2\"",
                etcd + "\"10.0.0.2\" is not one, got \"etcd://10.0.0.1:2379;10.0.0.2\""));
        rows.add(mooncake("\"master_server_addr\":\"redis://10.0.0.1:6379,10.0.0.2:6379\"",
                "('mooncake_store'): master_server_addr redis://... must name one Redis server as host:port (the port defaults to "
                + "6379), e.g. \"redis://10.0.0.1:6379\"; Mooncake reads its password and database from MC_REDIS_PASSWORD and "
                + "MC_REDIS_DB_INDEX, got \"redis://10.0.0.1:6379,10.0.0.2:6379\""));
        rows.add(mooncake("\"master_server_addr\":\"http://10.0.0.1:50051\"", "('mooncake_store'): master_server_addr names "
                + "the HA backend \"http\", which Mooncake's client does not know (etcd, redis, k8s)"));
        // A backend the connector's Mooncake was built without (no build here has k8s).
        rows.add(mooncake("\"master_server_addr\":\"k8s://default/mooncake-master\"", "('mooncake_store'): "
                + "master_server_addr = \"k8s://default/mooncake-master\" names Mooncake's k8s HA backend, but the connector "
                + "was built without it ("));
        for (String key : List.of("global_segment_size", "local_buffer_size")) {
            for (String size : List.of("-1", "\"-1\"", "\"16MB\"", "\"1.5\"", "1.5", "\"\"", "true", "\"99999999999999999999\"",
                    "\" 1\"")) {
                rows.add(mooncake("\"" + key + "\":" + size, "('mooncake_store'): " + key
                        + " must be a non-negative integer number of bytes (at most 9223372036854775807), got " + size));
            }
        }
        for (String key : List.of("local_hostname", "metadata_server", "rdma_devices", "tenant_id", "protocol")) {
            rows.add(mooncake("\"" + key + "\":\"a\\u0000b\"", "('mooncake_store'): " + key
                    + " contains a NUL character, which would end the string Mooncake reads: \"a\\u0000b\""));
        }
        rows.add(mooncake("\"x\\u0000y\":\"1\"", "('mooncake_store'): x\\0y contains a NUL character"));
        rows.add(mooncake("\"master_server_addr\":\"m:1\\u0000\"", "('mooncake_store'): master_server_addr contains a NUL character"));

        // key: the fields of an object key.
        rows.add(key("--model must not be empty", "--model", "", "--kv-rank", "1", "--hash", "00"));
        rows.add(key("model_name must not contain '@'", "--model", "a@b", "--kv-rank", "1", "--hash", "00"));
        rows.add(key("--model must not contain control characters, got \"a\\nb\"", "--model", "a\nb", "--kv-rank", "1", "--hash", "00"));
        rows.add(key("--model must not contain control characters, got \"a\\tb\"", "--model", "a\tb", "--kv-rank", "1", "--hash", "00"));
        rows.add(key("--model must not contain control characters, got \"\\u001b[2J\"", "--model", "\u001b[2J", "--kv-rank", "1", "--hash", "00"));
        rows.add(key("--model must not contain control characters, got \"a\\u0000\"", "--model", "a\u0000", "--kv-rank", "1", "--hash", "00"));
        rows.add(key("--salt must not contain control characters, got \"a\\nb\"", concat(GOOD_KEY, "--salt", "a\nb")));
        rows.add(key("--salt must not contain control characters, got \"\\r\"", concat(GOOD_KEY, "--salt", "\r")));
        rows.add(key("cache_salt must not contain '@', '/', '\\' or NUL (got 'a/b')", concat(GOOD_KEY, "--salt", "a/b")));
        rows.add(key("cache_salt must not contain '@'", concat(GOOD_KEY, "--salt", "a@b")));
        rows.add(key("cache_salt exceeds max length 128 (got 129)", concat(GOOD_KEY, "--salt", "s".repeat(129))));
        rows.add(key("--hash must be a non-empty, even number of hex digits, got \"\"", "--model", "m", "--kv-rank", "1", "--hash", ""));
        rows.add(key("--hash must be a non-empty, even number of hex digits, got \"abc\"", "--model", "m", "--kv-rank", "1", "--hash", "abc"));
        rows.add(key("--hash must be a non-empty, even number of hex digits, got \"zz\"", "--model", "m", "--kv-rank", "1", "--hash", "zz"));
        rows.add(key("--hash must be a non-empty, even number of hex digits, got \"0x00\"", "--model", "m", "--kv-rank", "1", "--hash", "0x00"));
        rows.add(key("--hash must be at most 128 hex digits (64 bytes), got 20480: \"abab", "--model", "m", "--kv-rank", "1",
                "--hash", "ab".repeat(10 * 1024)));
        rows.add(key("--hash must be at most 128 hex digits (64 bytes), got 130: \"" + "ab".repeat(65) + "\"",
                "--model", "m", "--kv-rank", "1", "--hash", "ab".repeat(65)));
        rows.add(key("--hash must be at most 128 hex digits (64 bytes), got 131", "--model", "m", "--kv-rank", "1",
                "--hash", "z".repeat(131)));
        rows.add(key("--model must be at most 1024 characters, got 120000: \"mmmm", "--model", "m".repeat(120_000),
                "--kv-rank", "1", "--hash", "00"));
        rows.add(key("--model must be at most 1024 characters, got 1025", "--model", "m".repeat(1025),
                "--kv-rank", "1", "--hash", "00"));
        rows.add(key("--kv-rank must be between 0 and 4294967295 (the key holds it as 8 hex digits), got 4294967296",
                "--model", "m", "--kv-rank", "4294967296", "--hash", "00"));
        rows.add(key("--kv-rank must be between 0 and 4294967295", "--model", "m", "--kv-rank", "1099511627776", "--hash", "00"));
        rows.add(key("--kv-rank must be between 0 and 4294967295 (the key holds it as 8 hex digits), got -1",
                "--model", "m", "--kv-rank", "-1", "--hash", "00"));
        rows.add(key("Invalid value for option '--kv-rank': '1.5' is not a long", "--model", "m", "--kv-rank", "1.5", "--hash", "00"));
        rows.add(key("Invalid value for option '--kv-rank': '99999999999999999999' is not a long",
                "--model", "m", "--kv-rank", "99999999999999999999", "--hash", "00"));
        rows.add(key("Invalid value for option '--kv-rank': 'one' is not a long", "--model", "m", "--kv-rank", "one", "--hash", "00"));
        rows.add(key("--group must be 0 or more, got -1", concat(GOOD_KEY, "--group", "-1")));
        rows.add(key("Invalid value for option '--group': 'x' is not a long", concat(GOOD_KEY, "--group", "x")));
        rows.add(key("Missing required options: '--kv-rank=R', '--hash=HEX'", "--model", "m"));
        rows.add(key("Missing required option: '--model=M'", "--kv-rank", "1", "--hash", "00"));
        rows.add(key("Unmatched argument at index 7: '@/etc/passwd'", concat(GOOD_KEY, "@/etc/passwd")));
        rows.add(key("Unknown options: '--modle', 'x'", concat(GOOD_KEY, "--modle", "x")));

        // run: its options, then an instance too small for the workload.
        rows.add(bad(USAGE, "--chunk-size: '1.5' is not a whole number of bytes", "run", "--chunk-size", "1.5"));
        rows.add(bad(USAGE, "--chunk-size: No number in size-in-bytes value 'lots'", "run", "--chunk-size", "lots"));
        rows.add(bad(USAGE, "--chunk-size: '10 EiB' is out of range", "run", "--chunk-size", "10 EiB"));
        rows.add(bad(USAGE, "--chunk-size: '-1' is negative", "run", "--chunk-size", "-1"));
        rows.add(bad(USAGE, "and a chunk at most 2 GiB", "run", "--chunk-size", "3 GiB"));
        rows.add(bad(USAGE, "(chunks 256, batch 16, in flight 4, passes 1, chunk size 0)", "run", "--chunk-size", "0"));
        rows.add(bad(USAGE, "(chunks 0, batch 16", "run", "--chunks", "0"));
        rows.add(bad(USAGE, "(chunks -5, batch 16", "run", "--chunks", "-5"));
        rows.add(bad(USAGE, "Invalid value for option '--chunks': '1.5' is not an int", "run", "--chunks", "1.5"));
        rows.add(bad(USAGE, "Invalid value for option '--chunks': '4294967296' is not an int", "run", "--chunks", "4294967296"));
        rows.add(bad(USAGE, "batch 0,", "run", "--batch", "0"));
        rows.add(bad(USAGE, "in flight 0,", "run", "--in-flight", "0"));
        rows.add(bad(USAGE, "passes 0,", "run", "--passes", "0"));
        rows.add(bad(USAGE, "--l1-size: '1.5' is not a whole number of bytes", "run", "--l1-size", "1.5"));
        rows.add(bad(USAGE, "--l1-size: No number in size-in-bytes value 'big'", "run", "--l1-size", "big"));
        rows.add(bad(USAGE, "--l1-size 1 MiB is too small: the workload needs", "run", "--chunks", "8", "--l1-size", "1 MiB"));
        rows.add(bad(USAGE, "Unknown options: '--chunk', '5'", "run", "--chunk", "5"));
        rows.add(bad(FAILED, "cannot allocate an L1 arena of 1.86 PiB", "run", "--chunks", "1000000000"));
        rows.add(bad(USAGE, "--l1-size 1 MiB is too small: the workload needs 16 MiB for --chunks 8", "run", "--chunks", "8",
                "--l1-size", "1 MiB"));
        rows.add(bad(FAILED, "warning: memory-0 holds 8 KiB, less than --chunks x --chunk-size (32 KiB)", "run",
                "--chunks", "8", "--chunk-size", "4 KiB", "--batch", "4", "--l2-adapter", "{\"type\":\"memory\",\"capacity\":\"8 KiB\"}"));

        // put and get: the file, the size, the instance.
        String[] putKey = GOOD_KEY;
        rows.add(bad(USAGE, "--in {dir}/nope.bin: no such file", concat(new String[] {"put", "--in", "{dir}/nope.bin"}, putKey)));
        rows.add(bad(USAGE, "--in {dir}/a-directory: is a directory, not a file", concat(new String[] {"put", "--in", "{dir}/a-directory"}, putKey)));
        rows.add(bad(USAGE, "--in {dir}/fifo: is not a regular file", concat(new String[] {"put", "--in", "{dir}/fifo"}, putKey)));
        rows.add(bad(USAGE, "--in /dev/null: is not a regular file", concat(new String[] {"put", "--in", "/dev/null"}, putKey)));
        rows.add(bad(USAGE, "--in {dir}/3gib.bin: is 3221225472 bytes, more than the limit of 2147479551",
                concat(new String[] {"put", "--in", "{dir}/3gib.bin"}, putKey)));
        rows.add(bad(USAGE, "--in {dir}/empty.bin: an object is 1 to 2147479551 bytes, got 0", concat(new String[] {"put", "--in", "{dir}/empty.bin"}, putKey)));
        rows.add(bad(USAGE, "--model must not be empty", "put", "--in", "{dir}/small.bin", "--model", "", "--kv-rank", "1", "--hash", "00"));
        rows.add(bad(USAGE, "--hash must be at most 128 hex digits (64 bytes), got 20480", "get", "--size", "1", "--out", "{dir}/o",
                "--model", "m", "--kv-rank", "1", "--hash", "ab".repeat(10 * 1024)));
        rows.add(bad(USAGE, "--instance 'x' is not declared (declared: memory)", concat(new String[] {"put", "--in", "{dir}/small.bin", "--instance", "x"}, putKey)));
        rows.add(bad(USAGE, "--instance is required when 2 instances are declared (a, b)", concat(new String[] {"put", "--in", "{dir}/small.bin",
                "--l2-adapter", "{\"type\":\"memory\",\"name\":\"a\"}", "--l2-adapter", "{\"type\":\"memory\",\"name\":\"b\"}"}, putKey)));
        rows.add(bad(USAGE, "Missing required option: '--in=FILE'", concat(new String[] {"put"}, putKey)));
        rows.add(bad(USAGE, "--size: '1.5' is not a whole number of bytes", concat(new String[] {"get", "--size", "1.5", "--out", "{dir}/o"}, putKey)));
        rows.add(bad(USAGE, "--size 0: an object is 1 to 2147479551 bytes, got 0", concat(new String[] {"get", "--size", "0", "--out", "{dir}/o"}, putKey)));
        rows.add(bad(USAGE, "--size 3 GiB: an object is 1 to 2147479551 bytes, got 3221225472", concat(new String[] {"get", "--size", "3 GiB", "--out", "{dir}/o"}, putKey)));
        rows.add(bad(USAGE, "--size: '-1' is negative", concat(new String[] {"get", "--size", "-1", "--out", "{dir}/o"}, putKey)));
        rows.add(bad(USAGE, "Missing required option: '--out=FILE'", concat(new String[] {"get", "--size", "1"}, putKey)));
        rows.add(bad(FAILED, "not found: m@00000001@0@00 in memory", concat(new String[] {"get", "--size", "3", "--out", "{dir}/o"}, putKey)));

        // The command line itself.
        rows.add(bad(USAGE, "a subcommand is required: adapters, validate, key, run, put, get, soak"));
        rows.add(bad(USAGE, "Unmatched argument at index 0: 'nope'", "nope"));
        rows.add(bad(USAGE, "Unmatched argument at index 0: '@{dir}/small.bin'", "@{dir}/small.bin"));
        rows.add(bad(USAGE, "unknown adapter type 'fs'. Known: memory, mooncake_store", "adapters", "fs"));
        rows.add(bad(USAGE, "unknown adapter type 'a\\nb\\u001b'. Known: memory", "adapters", "a\nb\u001b"));
        rows.add(bad(USAGE, "'': an empty path names no file", "validate", "-c", ""));
        rows.add(bad(USAGE, "--in : an empty path names no file", concat(new String[] {"put", "--in", ""}, GOOD_KEY)));
        rows.add(bad(USAGE, "Missing required parameter for option '--config' (FILE)", "validate", "-c"));
        rows.add(bad(USAGE, "--duration must be a positive duration such as 30s, 10m or PT1H, got 'x'", "soak", "--duration", "x"));
        rows.add(bad(USAGE, "--duration '1e400s' is out of range: the longest duration is 106751 days", "soak", "--duration", "1e400s"));
        rows.add(bad(USAGE, "--duration 'PT9999999999999H' is out of range", "soak", "--duration", "PT9999999999999H"));
        rows.add(bad(USAGE, "--fault-settle '1e400s' is out of range", "soak", "--fault-settle", "1e400s"));
        rows.add(bad(USAGE, "--duration must be a positive duration such as 30s, 10m or PT1H, got '0.5ns'", "soak", "--duration", "0.5ns"));
        rows.add(bad(USAGE, "--threads must be positive, got 0", "soak", "--threads", "0"));
        rows.add(bad(USAGE, "--mix must be weights such as store=40,lookup=20,load=35,delete=5, got 'foo=1'", "soak", "--mix", "foo=1"));
        rows.add(bad(USAGE, "--chunk-size: '1.5' is not a whole number of bytes", "soak", "--chunk-size", "1.5"));
        rows.add(bad(USAGE, "--metrics-port must be a port from 0 to 65535, got 70000", "soak", "--metrics-port", "70000"));
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void isRefusedInOneClearLine(Row row) {
        String[] args = row.args().stream().map(BadInputCorpusTest::inDir).toArray(String[]::new);
        Result r = HostCli.kvtier(args);
        assertThat(r.err().lines()).as("exactly one line on stderr: %s", r.err()).hasSize(1);
        String line = r.err().lines().findFirst().orElseThrow();
        assertThat(line).startsWith("kvtier: ").contains(inDir(row.says()))
                .doesNotContain("Exception").doesNotContain("at io.").doesNotContain("\tat ")
                .hasSizeLessThan(ErrorLine.MAX_LINE + 50);
        assertThat(r.exit()).as(line).isEqualTo(row.exit());
    }

    private static String inDir(String text) {
        return text.replace("{dir}", dir.toString());
    }
}
