package io.kvtier.mooncake;

import io.kvtier.spi.L1Slice;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/** What the plugin's tests share: objects of {@link #SIZE} bytes, their keys and slices, and a bounded wait. */
public final class Fixtures {
    static final int SIZE = 2048;
    /** The connector's KVT_NOT_DELIVERED: the caller closed the batch's guard before the key's copy. */
    static final long NOT_DELIVERED = -9101;

    private Fixtures() {}

    static <T> T await(CompletableFuture<T> future) {
        return future.orTimeout(30, TimeUnit.SECONDS).join();
    }

    public static List<ObjectKey> keys(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(TestDouble::key).toList();
    }

    /** count slices of SIZE bytes filled with seeded random bytes (seed = slice index + salt). */
    static List<L1Slice> filled(OffHeapRegion region, int count, long salt) {
        List<L1Slice> slices = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            region.fill(i * SIZE, SIZE, i + salt);
            slices.add(region.slice(i * SIZE, SIZE));
        }
        return slices;
    }

    static List<L1Slice> empty(OffHeapRegion region, int count) {
        return IntStream.range(0, count).mapToObj(i -> region.slice(i * SIZE, SIZE)).toList();
    }
}
