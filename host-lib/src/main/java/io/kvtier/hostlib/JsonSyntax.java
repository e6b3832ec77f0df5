package io.kvtier.hostlib;

/**
 * Finds where a text stops being JSON (RFC 8259), so that an error in a {@code --l2-adapter} flag
 * can name its column: Typesafe Config reports only lines, and a flag is usually one line.
 */
final class JsonSyntax {
    private final String text;
    private int pos;
    /** The offset of the first integer literal beyond 64 bits, which Typesafe Config cannot read, or -1. */
    private int firstIntegerBeyondLong = -1;

    private JsonSyntax(String text) {
        this.text = text;
    }

    /** The offset of the first character that cannot continue valid JSON (the length at a premature end), or -1. */
    static int firstError(String text) {
        JsonSyntax scanner = new JsonSyntax(text);
        try {
            scanner.value();
            scanner.whitespace();
            return scanner.pos == text.length() ? -1 : scanner.pos;
        } catch (IllegalStateException e) {
            return scanner.pos;
        }
    }

    /**
     * The offset of the first integer literal beyond a {@code long}, or -1. Such a number is valid
     * JSON, but Typesafe Config calls it a token not allowed in JSON.
     */
    static int firstIntegerBeyondLong(String text) {
        JsonSyntax scanner = new JsonSyntax(text);
        try {
            scanner.value();
        } catch (IllegalStateException e) {
            // Invalid JSON is reported by the parser; only the numbers read before the error count.
        }
        return scanner.firstIntegerBeyondLong;
    }

    /** The number literal that starts at {@code offset}. */
    static String numberAt(String text, int offset) {
        int end = offset;
        while (end < text.length() && "+-0123456789.eE".indexOf(text.charAt(end)) >= 0) {
            end++;
        }
        return text.substring(offset, end);
    }

    private void value() {
        whitespace();
        char c = peek();
        switch (c) {
            case '{' -> members('}', true);
            case '[' -> members(']', false);
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        }
    }

    /** An object's members or an array's elements, from the opening bracket to {@code close}. */
    private void members(char close, boolean named) {
        pos++;
        whitespace();
        if (peek() == close) {
            pos++;
            return;
        }
        while (true) {
            if (named) {
                whitespace();
                if (peek() != '"') {
                    throw new IllegalStateException();
                }
                string();
                whitespace();
                expect(':');
            }
            value();
            whitespace();
            if (peek() == close) {
                pos++;
                return;
            }
            expect(',');
        }
    }

    private void string() {
        pos++;
        while (true) {
            char c = peek();
            if (c == '"') {
                pos++;
                return;
            }
            if (c < 0x20) {
                throw new IllegalStateException();
            }
            pos++;
            if (c == '\\') {
                char escaped = peek();
                if ("\"\\/bfnrt".indexOf(escaped) >= 0) {
                    pos++;
                } else if (escaped == 'u') {
                    pos++;
                    for (int i = 0; i < 4; i++) {
                        if (Character.digit(peek(), 16) < 0) {
                            throw new IllegalStateException();
                        }
                        pos++;
                    }
                } else {
                    throw new IllegalStateException();
                }
            }
        }
    }

    private void number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else {
            digits();
        }
        if (firstIntegerBeyondLong < 0 && !continuesNumber() && beyondLong(text.substring(start, pos))) {
            firstIntegerBeyondLong = start;
        }
        if (pos < text.length() && text.charAt(pos) == '.') {
            pos++;
            digits();
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            digits();
        }
    }

    /** Whether a fraction or an exponent follows, making the number a double rather than an integer. */
    private boolean continuesNumber() {
        return pos < text.length() && ".eE".indexOf(text.charAt(pos)) >= 0;
    }

    private static boolean beyondLong(String integer) {
        try {
            Long.parseLong(integer);
            return false;
        } catch (NumberFormatException e) {
            return true;
        }
    }

    private void digits() {
        if (!Character.isDigit(peek())) {
            throw new IllegalStateException();
        }
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            pos++;
        }
    }

    private void literal(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (peek() != word.charAt(i)) {
                throw new IllegalStateException();
            }
            pos++;
        }
    }

    private void expect(char c) {
        if (peek() != c) {
            throw new IllegalStateException();
        }
        pos++;
    }

    private void whitespace() {
        while (pos < text.length() && " \t\n\r".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
    }

    /** The next character; at the end of the text, an error there. */
    private char peek() {
        if (pos >= text.length()) {
            throw new IllegalStateException();
        }
        return text.charAt(pos);
    }
}
