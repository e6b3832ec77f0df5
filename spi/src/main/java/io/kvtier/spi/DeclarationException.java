package io.kvtier.spi;

/** A declaration that cannot be used. The message starts with its source (file:line or --l2-adapter #i). */
public final class DeclarationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public DeclarationException(String message) {
        super(message);
    }

    public DeclarationException(String message, Throwable cause) {
        super(message, cause);
    }
}
