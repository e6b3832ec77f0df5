package io.kvtier.spi;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * Why one key failed (since SPI revision 3).
 *
 * @param kind    what a host may do about it
 * @param code    the store's own error code, when it has one (Mooncake's are negative)
 * @param message for people: what failed, for which key
 */
public record KeyError(ErrorKind kind, OptionalLong code, String message) {
    public KeyError {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }

    public static KeyError of(ErrorKind kind, String message) {
        return new KeyError(kind, OptionalLong.empty(), message);
    }

    public static KeyError of(ErrorKind kind, long code, String message) {
        return new KeyError(kind, OptionalLong.of(code), message);
    }
}
