package io.kvtier.host.soak;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;

/** Duration options: Typesafe Config's forms ({@code 30s}, {@code 10m}, {@code 2 hours}) or ISO-8601 ({@code PT10M}). */
final class Durations {
    /**
     * What a nanosecond count holds: Typesafe clamps a longer duration to exactly this, so it reads
     * as a value the user did not write.
     */
    private static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);

    private Durations() {}

    static Duration parse(String text, String option) {
        String trimmed = text == null ? "" : text.trim();
        try {
            Duration duration = trimmed.startsWith("P") || trimmed.startsWith("p")
                    ? Duration.parse(trimmed)
                    : ConfigFactory.parseMap(Map.of("v", trimmed)).getDuration("v");
            if (duration.compareTo(LONGEST) >= 0) {
                throw new IllegalArgumentException(option + " '" + text + "' is out of range: the longest duration is "
                        + LONGEST.toDays() + " days");
            }
            if (!duration.isNegative() && !duration.isZero()) {
                return duration;
            }
        } catch (ConfigException | DateTimeParseException e) {
            // reported below with the option and the value
        }
        throw new IllegalArgumentException(option + " must be a positive duration such as 30s, 10m or PT1H, got '"
                + text + "'");
    }
}
