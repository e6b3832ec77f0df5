package io.kvtier.host;

/**
 * What kvtier prints on stderr for one error or warning: a single line, however long or strange
 * the value it quotes. A value of a megabyte is cut to its start and its length, so the line still
 * fits a terminal and still says where and what.
 */
final class ErrorLine {
    /** A longer word (a run without a space, e.g. a quoted value) keeps its first {@value #KEPT} characters. */
    static final int MAX_WORD = 256;
    static final int KEPT = 200;
    /** A longer line keeps its first {@value #MAX_LINE} characters. */
    static final int MAX_LINE = 1000;

    private ErrorLine() {}

    static String of(String message) {
        StringBuilder line = new StringBuilder();
        int wordStart = 0;
        for (int i = 0; i <= message.length(); i++) {
            if (i == message.length() || message.charAt(i) == ' ') {
                appendWord(message.substring(wordStart, i), line);
                if (i < message.length()) {
                    line.append(' ');
                }
                wordStart = i + 1;
            }
        }
        return line.length() > MAX_LINE ? cut(line.toString(), MAX_LINE) : line.toString();
    }

    private static void appendWord(String word, StringBuilder line) {
        String shown = word.length() > MAX_WORD ? cut(word, KEPT) : word;
        for (int i = 0; i < shown.length(); i++) {
            // Control characters would move the cursor or end the line: show them as escapes.
            switch (shown.charAt(i)) {
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    char c = shown.charAt(i);
                    line.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
                }
            }
        }
    }

    private static String cut(String text, int kept) {
        return text.substring(0, kept) + "...[" + text.length() + " characters]";
    }
}
