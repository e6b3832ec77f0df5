package io.kvtier.hostlib;

/**
 * Finds where a text stops being JSON (RFC 8259), so that an error in a {@code --l2-adapter} flag
 * can name its column: Typesafe Config reports only lines, and a flag is usually one line.
 */
final class JsonSyntax {
    private final String text;
    private int pos;

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
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else {
            digits();
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
