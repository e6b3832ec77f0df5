package io.kvtier.spi;

import java.util.Map;

/**
 * An immutable snapshot of an adapter's byte accounting.
 *
 * @param capacityBytes 0 when the capacity is unknown or unlimited
 */
public record AdapterUsage(long totalBytesUsed, long capacityBytes, Map<String, Long> bytesByCacheSalt) {
    public AdapterUsage {
        bytesByCacheSalt = Map.copyOf(bytesByCacheSalt);
    }

    /** Used over capacity, or -1.0 when there is no capacity: LMCache's "no eviction signal". */
    public double usageFraction() {
        return capacityBytes <= 0 ? -1.0 : (double) totalBytesUsed / capacityBytes;
    }
}
