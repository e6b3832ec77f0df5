package io.kvtier.hostlib;

import io.kvtier.spi.ConfigurationException;

/** A declaration that cannot be used. The message starts with its origin (file:line or --l2-adapter #i). */
public final class DeclarationException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    public DeclarationException(String origin, String problem) {
        super(origin, problem);
    }

    public DeclarationException(String origin, String problem, Throwable cause) {
        super(origin, problem, cause);
    }
}
