package io.kvtier.hostlib;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Checks how deeply HOCON or JSON text nests, without recursion, before Typesafe Config's recursive
 * parser sees it: a few thousand levels would overflow its stack. A level is an open bracket or a
 * segment of a dotted key ({@code a.b.c = 1} nests three deep). For HOCON it also finds brackets
 * that do not match, whose Typesafe message speaks of parentheses the text may not have.
 */
final class Nesting {
    /** Far beyond any declaration, far below what overflows a parser's stack. */
    static final int MAX_DEPTH = 64;
    private static final String STRUCTURE = "{}[],:=";

    /** What is wrong, at an offset in the text. */
    record Problem(int offset, String message) {}

    private final String text;
    private final Deque<Integer> open = new ArrayDeque<>();
    private int pos;
    /** Dots in the current run of unquoted text: the segments a dotted key adds to the depth. */
    private int dots;

    private Nesting(String text) {
        this.text = text;
    }

    /** The first level beyond {@link #MAX_DEPTH}, or with {@code matchBrackets} the first bracket that does not match; null when none. */
    static Problem check(String text, boolean matchBrackets) {
        return new Nesting(text).scan(matchBrackets);
    }

    private Problem scan(boolean matchBrackets) {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '"') {
                int start = pos;
                if (!skipString() && matchBrackets) {
                    return new Problem(start, "the string that starts here is not closed on its line");
                }
                continue;
            }
            if (c == '#' || text.startsWith("//", pos)) {
                skipToLineEnd();
                continue;
            }
            if (Character.isWhitespace(c) || STRUCTURE.indexOf(c) >= 0) {
                dots = 0;
            }
            if (c == '.') {
                dots++;
            } else if (c == '{' || c == '[') {
                open.push(pos);
            } else if (c == '}' || c == ']') {
                Problem mismatch = close(c);
                if (mismatch != null && matchBrackets) {
                    return mismatch;
                }
            }
            if (open.size() + dots > MAX_DEPTH) {
                return new Problem(pos, "nested more than " + MAX_DEPTH + " levels deep");
            }
            pos++;
        }
        if (matchBrackets && !open.isEmpty()) {
            int opener = open.peek();
            return new Problem(opener, "'" + text.charAt(opener) + "' is never closed");
        }
        return null;
    }

    private Problem close(char c) {
        char expected = c == '}' ? '{' : '[';
        if (open.isEmpty()) {
            return new Problem(pos, "'" + c + "' closes nothing");
        }
        int opener = open.pop();
        if (text.charAt(opener) != expected) {
            return new Problem(pos, "'" + c + "' where the '" + text.charAt(opener) + "' at " + lineOf(opener)
                    + " needs '" + (expected == '{' ? ']' : '}') + "'");
        }
        return null;
    }

    private String lineOf(int offset) {
        return "line " + (text.substring(0, offset).chars().filter(ch -> ch == '\n').count() + 1);
    }

    /** Skips a quoted or triple-quoted string; whether it was closed (a quoted one must close on its line). */
    private boolean skipString() {
        if (text.startsWith("\"\"\"", pos)) {
            int end = text.indexOf("\"\"\"", pos + 3);
            pos = end < 0 ? text.length() : end + 3;
            while (pos < text.length() && text.charAt(pos) == '"') {
                pos++;
            }
            return end >= 0;
        }
        pos++;
        while (pos < text.length() && text.charAt(pos) != '"' && text.charAt(pos) != '\n') {
            pos += text.charAt(pos) == '\\' ? 2 : 1;
        }
        boolean closed = pos < text.length() && text.charAt(pos) == '"';
        pos++;
        return closed;
    }

    private void skipToLineEnd() {
        int end = text.indexOf('\n', pos);
        pos = end < 0 ? text.length() : end;
    }
}
