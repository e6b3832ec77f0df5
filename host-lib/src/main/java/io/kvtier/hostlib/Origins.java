package io.kvtier.hostlib;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigOrigin;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Says where a declared value was written, in the words a user searches for: a file's line, a flag's column. */
final class Origins {
    /** Typesafe appends ": <line>" (or ": <first>-<last>") to an origin's description. */
    private static final Pattern LINE_SUFFIX = Pattern.compile(": \\d+(-\\d+)?$");

    private Origins() {}

    /** {@code file:line}, {@code resource:line}, or the origin's name when it has no line. */
    static String where(ConfigOrigin origin) {
        String name = origin.filename() != null ? origin.filename()
                : origin.resource() != null ? origin.resource()
                : LINE_SUFFIX.matcher(origin.description()).replaceFirst("");
        return origin.lineNumber() > 0 ? name + ":" + origin.lineNumber() : name;
    }

    /**
     * The position of the member at {@code path} in a {@code --l2-adapter} flag's own text:
     * {@code --l2-adapter #2, column 14} (with the line when the text has several). Typesafe
     * counts lines only, so the column is found by searching for the quoted member names in turn.
     */
    static String inFlag(String flag, String text, List<String> path) {
        int pos = -1;
        int from = 0;
        for (String key : path) {
            Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\"\\s*:").matcher(text);
            if (!m.find(from)) {
                break;
            }
            pos = m.start();
            from = m.end();
        }
        return pos < 0 ? flag : flag + ", " + lineAndColumn(text, pos);
    }

    /**
     * Where a JSON flag's text goes wrong: {@code , column 14} (with the line when the text has
     * several), or {@code , line 3} when only Typesafe's line is known.
     */
    static String syntaxErrorIn(String text, ConfigException e) {
        int offset = JsonSyntax.firstError(text);
        if (offset >= 0) {
            return ", " + lineAndColumn(text, offset);
        }
        return text.indexOf('\n') >= 0 && e.origin() != null ? ", line " + e.origin().lineNumber() : "";
    }

    static String lineAndColumn(String text, int offset) {
        int lineStart = text.lastIndexOf('\n', offset - 1) + 1;
        String column = "column " + (offset - lineStart + 1);
        if (text.indexOf('\n') < 0) {
            return column;
        }
        long line = text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
        return "line " + line + ", " + column;
    }

    /** Typesafe's own message, without the origin it starts with (the caller names a better one). */
    static String problem(ConfigException e) {
        String message = e.getMessage();
        ConfigOrigin origin = e.origin();
        if (origin != null && message.startsWith(origin.description() + ": ")) {
            return message.substring(origin.description().length() + 2);
        }
        return message;
    }
}
