package io.kvtier.host.replay;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * A request trace in the form of Mooncake's FAST'25 traces: one JSON object per line, in arrival
 * order, {@code {"timestamp": ms, "input_length": n, "output_length": n, "hash_ids": [ints]}}, where
 * each id is one 512-token prompt block and equal ids are equal prefixes. Gzipped files are read as
 * they are. Only the timestamp and the ids are used.
 */
final class Trace {
    record Request(long timestampMs, int[] blocks) {}

    private static final ConfigParseOptions JSON = ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON);

    private Trace() {}

    /**
     * The first {@code limit} requests of {@code file}; a line that is not such a request is an
     * IllegalArgumentException naming the file, the line and what is wrong.
     */
    static List<Request> read(Path file, int limit) {
        List<Request> requests = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(open(file), StandardCharsets.UTF_8))) {
            long previous = 0;
            String text;
            for (int line = 1; requests.size() < limit && (text = reader.readLine()) != null; line++) {
                Request request = parse(file, line, text);
                if (request.timestampMs() < previous) {
                    throw bad(file, line, "timestamp " + request.timestampMs() + " is before the previous line's "
                            + previous + ": requests must be in arrival order");
                }
                previous = request.timestampMs();
                requests.add(request);
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--trace " + file + ": no such file");
        } catch (IOException e) {
            throw new UncheckedIOException("--trace " + file + ": " + e.getMessage(), e);
        }
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("--trace " + file + ": the trace is empty");
        }
        return requests;
    }

    private static InputStream open(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException("--trace " + file + ": a directory, not a file");
        }
        InputStream in = new BufferedInputStream(Files.newInputStream(file));
        in.mark(2);
        boolean gzip = in.read() == 0x1f && in.read() == 0x8b;
        in.reset();
        return gzip ? new GZIPInputStream(in) : in;
    }

    private static Request parse(Path file, int line, String text) {
        ConfigObject json;
        try {
            json = ConfigFactory.parseString(text, JSON).root();
        } catch (ConfigException e) {
            throw bad(file, line, "not a JSON object: " + quote(text));
        }
        // Checked by hand: Typesafe's getters would take "5" or 1.5 for 5 and 1.
        ConfigValue timestamp = json.get("timestamp");
        if (timestamp == null || !(timestamp.unwrapped() instanceof Integer || timestamp.unwrapped() instanceof Long)) {
            throw bad(file, line, "timestamp must be a whole number of milliseconds, got " + render(timestamp));
        }
        long ms = ((Number) timestamp.unwrapped()).longValue();
        if (ms < 0) {
            throw bad(file, line, "timestamp " + ms + " is negative");
        }
        ConfigValue ids = json.get("hash_ids");
        if (!(ids instanceof ConfigList list) || !list.stream().allMatch(id -> id.unwrapped() instanceof Integer)) {
            throw bad(file, line, "hash_ids must be a list of block ids, whole numbers of at most 32 bits, got "
                    + render(ids));
        }
        if (list.isEmpty()) {
            throw bad(file, line, "hash_ids is empty: a request has at least one block");
        }
        return new Request(ms, list.stream().mapToInt(id -> (Integer) id.unwrapped()).toArray());
    }

    private static String render(ConfigValue value) {
        return value == null ? "nothing" : quote(value.render(ConfigRenderOptions.concise()));
    }

    private static String quote(String text) {
        return "'" + (text.length() > 80 ? text.substring(0, 80) + "..." : text) + "'";
    }

    private static IllegalArgumentException bad(Path file, int line, String message) {
        return new IllegalArgumentException("--trace " + file + ":" + line + ": " + message);
    }
}
