package io.kvtier.hostlib;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Map;

/**
 * Byte sizes as the user wrote them: {@code 67108864}, {@code 64 MiB}, {@code 1.5 KiB}, with
 * Typesafe Config's units. Unlike Typesafe's own getter, a size is never rounded ({@code 1.5} is
 * not 1 byte) and never clamped ({@code 10 EiB} is not {@link Long#MAX_VALUE}): either it is exact
 * or it is refused, with the text the user wrote.
 */
final class ByteSizes {
    private static final BigDecimal LARGEST = BigDecimal.valueOf(Long.MAX_VALUE);
    static final String LARGEST_SIZE = "the largest size is " + Long.MAX_VALUE + " bytes (8 EiB - 1)";

    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private ByteSizes() {}

    /**
     * {@code bytes} in the largest binary unit it fills at least once: exact when it is a whole
     * number of that unit ({@code 8 KiB}), else to three significant digits ({@code 1.86 PiB},
     * {@code 954 GiB}).
     */
    static String readable(long bytes) {
        int unit = 0;
        while (unit < UNITS.length - 1 && bytes >>> (10 * (unit + 1)) > 0) {
            unit++;
        }
        if (bytes < 0 || bytes % (1L << (10 * unit)) == 0) {
            return (bytes >> (10 * unit)) + " " + UNITS[unit];
        }
        double value = bytes / Math.pow(1024, unit);
        String format = value < 10 ? "%.2f %s" : value < 100 ? "%.1f %s" : "%.0f %s";
        return String.format(Locale.ROOT, format, value, UNITS[unit]);
    }

    /** @throws IllegalArgumentException with a message quoting {@code written} */
    static long parse(String written) {
        String text = written.strip();
        int unitStart = text.length();
        while (unitStart > 0 && Character.isLetter(text.charAt(unitStart - 1))) {
            unitStart--;
        }
        String number = text.substring(0, unitStart).strip();
        if (number.isEmpty()) {
            throw new IllegalArgumentException("No number in size-in-bytes value '" + written + "'");
        }
        BigDecimal value;
        try {
            value = new BigDecimal(number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Could not parse size-in-bytes number '" + number + "'");
        }
        BigDecimal bytes = value.multiply(new BigDecimal(unitBytes(text.substring(unitStart))));
        if (bytes.signum() < 0) {
            throw new IllegalArgumentException("'" + written + "' is negative; a size is 0 or more bytes");
        }
        if (bytes.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException("'" + written + "' is not a whole number of bytes");
        }
        if (bytes.compareTo(LARGEST) > 0) {
            throw new IllegalArgumentException("'" + written + "' is out of range: " + LARGEST_SIZE);
        }
        return bytes.longValueExact();
    }

    /** Bytes per unit, by Typesafe's own table, so every unit it documents means the same here. */
    private static BigInteger unitBytes(String unit) {
        if (unit.isEmpty()) {
            return BigInteger.ONE;
        }
        try {
            return ConfigFactory.parseMap(Map.of("v", "1 " + unit)).getMemorySize("v").toBytesBigInteger();
        } catch (ConfigException e) {
            throw new IllegalArgumentException(Origins.problem(e).replaceFirst("^Invalid value at 'v': ", ""));
        }
    }
}
