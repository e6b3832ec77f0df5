package io.kvtier.spi;

/**
 * The revision of this contract. It grows when the contract gains anything a plugin may use; a
 * host accepts plugins built against its own revision or an older one (every method added later
 * has a default) and refuses plugins built against a newer one, whose calls it could not serve.
 *
 * <ul>
 *   <li>2: {@code spiVersion()}, health changes to listeners.</li>
 *   <li>3: per-key {@link KeyError}s with an {@link ErrorKind}, {@link BatchFailedException},
 *       {@link Health}, bytes per key, paged key listing, and whether global eviction is supported.</li>
 * </ul>
 */
public final class SpiVersion {
    /**
     * A compile-time constant: {@code javac} copies its value into every class that reads it, so a
     * provider's {@code return SpiVersion.CURRENT;} keeps the revision it was compiled against.
     */
    public static final int CURRENT = 3;

    private SpiVersion() {}
}
