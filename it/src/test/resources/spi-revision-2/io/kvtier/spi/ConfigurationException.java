package io.kvtier.spi;

/**
 * A user's configuration cannot be used: a bad value, a missing key, or a setting that cannot work
 * in this host. Hosts report it as the user's error, at its origin. Any other exception out of a
 * provider (a {@code NumberFormatException} included) is a bug or a runtime failure, not this.
 */
public class ConfigurationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String origin;
    private final String problem;

    /**
     * @param origin  where the offending setting was written, e.g. {@code conf/x.conf:6 ('memory')}, or ""
     * @param problem what is wrong, naming the key and the value
     */
    public ConfigurationException(String origin, String problem) {
        this(origin, problem, null);
    }

    public ConfigurationException(String origin, String problem, Throwable cause) {
        super(origin.isEmpty() ? problem : origin + ": " + problem, cause);
        this.origin = origin;
        this.problem = problem;
    }

    /** A problem with no single origin, e.g. a configuration that cannot work with the host's L1. */
    public ConfigurationException(String problem) {
        this("", problem, null);
    }

    /** Where the setting was written, or "" when it has no single origin. */
    public String origin() {
        return origin;
    }

    /** The message without its origin. */
    public String problem() {
        return problem;
    }
}
