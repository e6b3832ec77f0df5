package io.kvtier.spi;

/**
 * The revision of this contract. It grows when the contract gains anything a plugin may use; a
 * host accepts plugins built against its own revision or an older one (every method added later
 * has a default) and refuses plugins built against a newer one, whose calls it could not serve.
 */
public final class SpiVersion {
    /**
     * A compile-time constant: {@code javac} copies its value into every class that reads it, so a
     * provider's {@code return SpiVersion.CURRENT;} keeps the revision it was compiled against.
     */
    public static final int CURRENT = 2;

    private SpiVersion() {}
}
