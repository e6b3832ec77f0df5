package io.kvtier.hostlib;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A declaration file's text, which must be UTF-8. Typesafe Config would read UTF-16 as garbage and
 * report whatever it then misses (a list, a key); this names the encoding instead.
 */
final class DeclarationText {
    private DeclarationText() {}

    /** @throws DeclarationException at {@code name} when the file is UTF-16, binary or otherwise not UTF-8 */
    static String readUtf8(Path file, String name) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new DeclarationException(name, "cannot be read: " + e.getMessage());
        }
        if (bytes.length >= 2 && ((bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)
                || (bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE))) {
            throw new DeclarationException(name, "is UTF-16 text (it starts with a UTF-16 byte order mark); "
                    + "declarations are read as UTF-8");
        }
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                throw new DeclarationException(name + ":" + lineAt(bytes, i), "contains a NUL byte: UTF-16 or binary, "
                        + "not UTF-8 text");
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new DeclarationException(name, "is not UTF-8 text");
        }
    }

    /** The 1-based line of {@code offset} in {@code text}. */
    static long lineAt(String text, int offset) {
        return text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }

    private static long lineAt(byte[] bytes, int offset) {
        long line = 1;
        for (int i = 0; i < offset; i++) {
            if (bytes[i] == '\n') {
                line++;
            }
        }
        return line;
    }
}
