package io.kvtier.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.DeclaredSettings;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.ConfigurationException;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyOutcome;
import io.kvtier.spi.KeyPage;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MemoryAdapterTest {
    private final L1Arena arena = L1Arena.allocate(1 << 20, 64, false);
    private final MemoryAdapterProvider provider = new MemoryAdapterProvider();

    @AfterEach
    void freeArena() {
        arena.close();
    }

    private L2Adapter create(String name, String capacity) {
        return provider.create(parse(Map.of("type", "memory", "capacity", capacity)),
                new AdapterContext(name, Optional.empty(), new MetricRegistry(), "kvtier.adapter." + name));
    }

    @Test
    void itsMetricsCountOperationsHitsMissesEvictionsAndBytesAndTheGaugesGoOnClose() {
        MetricRegistry metrics = new MetricRegistry();
        L2Adapter adapter = provider.create(parse(Map.of("type", "memory", "capacity", "2 KiB")),
                new AdapterContext("m", Optional.empty(), metrics, "kvtier.adapter.m"));
        adapter.store(List.of(key(1), key(2)), List.of(slice(1024, 1), slice(1024, 2))).join();
        adapter.store(List.of(key(3)), List.of(slice(1024, 3))).join(); // evicts key 1, the least recently used
        assertThat(adapter.lookupAndLock(List.of(key(1), key(2), key(3))).join().results())
                .containsExactly(KeyResult.MISSING, KeyResult.OK, KeyResult.OK);
        adapter.unlock(List.of(key(2), key(3)));
        adapter.load(List.of(key(2)), List.of(arena.allocate(1024))).join();
        adapter.delete(List.of(key(2))).join();

        assertThat(metrics.timer("kvtier.adapter.m.store").getCount()).isEqualTo(2);
        assertThat(metrics.timer("kvtier.adapter.m.lookup").getCount()).isEqualTo(1);
        assertThat(metrics.timer("kvtier.adapter.m.load").getCount()).isEqualTo(1);
        assertThat(metrics.timer("kvtier.adapter.m.delete").getCount()).isEqualTo(1);
        assertThat(metrics.counter("kvtier.adapter.m.hits").getCount()).isEqualTo(2);
        assertThat(metrics.counter("kvtier.adapter.m.misses").getCount()).isEqualTo(1);
        assertThat(metrics.counter("kvtier.adapter.m.evictions").getCount()).isEqualTo(1);
        assertThat(metrics.getGauges().get("kvtier.adapter.m.bytes_used").getValue()).isEqualTo(1024L);
        assertThat(metrics.getGauges().get("kvtier.adapter.m.capacity_bytes").getValue()).isEqualTo(2048L);

        adapter.close();
        assertThat(metrics.getGauges()).isEmpty();
        L2Adapter again = provider.create(parse(Map.of("type", "memory", "capacity", "2 KiB")),
                new AdapterContext("m", Optional.empty(), metrics, "kvtier.adapter.m"));
        adapter.close();
        assertThat(metrics.getGauges()).as("a second close leaves the new instance's gauges")
                .containsOnlyKeys("kvtier.adapter.m.bytes_used", "kvtier.adapter.m.capacity_bytes");
        again.close();
    }

    private MemoryAdapterProvider.Config parse(Map<String, Object> body) {
        return provider.parseConfig(DeclaredSettings.fromMap(provider, body, "test"));
    }

    private static ObjectKey key(int i) {
        return new ObjectKey(new byte[] {(byte) i}, "m", 0);
    }

    private L1Slice slice(int length, int fill) {
        L1Slice slice = arena.allocate(length);
        for (int i = 0; i < length; i++) {
            slice.buffer().put(i, (byte) (fill + i));
        }
        return slice;
    }

    @Test
    void storesLooksUpAndLoadsByteForByte() {
        L2Adapter adapter = create("a", "1 KiB");
        L1Slice source = slice(100, 7);
        BatchResult stored = adapter.store(List.of(key(1)), List.of(source)).join();
        assertThat(stored.results()).containsExactly(KeyResult.OK);
        assertThat(stored.newBytes()).isEqualTo(100);
        assertThat(adapter.lookupAndLock(List.of(key(1), key(2))).join().results())
                .containsExactly(KeyResult.OK, KeyResult.MISSING);
        L1Slice target = slice(100, 0);
        assertThat(adapter.load(List.of(key(1), key(2)), List.of(target, slice(100, 0))).join().results())
                .containsExactly(KeyResult.OK, KeyResult.MISSING);
        assertThat(target.buffer()).isEqualTo(source.buffer());
    }

    @Test
    void aReStoreSucceedsWithNoNewBytes() {
        L2Adapter adapter = create("a", "1 KiB");
        adapter.store(List.of(key(1)), List.of(slice(10, 1))).join();
        BatchResult again = adapter.store(List.of(key(1), key(2)), List.of(slice(10, 1), slice(7, 2))).join();
        assertThat(again.allOk()).isTrue();
        assertThat(again.outcomes()).extracting(KeyOutcome::bytes).as("a key counts only on its first store")
                .containsExactly(0L, 7L);
        assertThat(again.newBytes()).isEqualTo(7);
        assertThat(adapter.load(List.of(key(2)), List.of(slice(7, 0))).join().outcomes().get(0).bytes()).isEqualTo(7);
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(17);
    }

    @Test
    void aLoadIntoABufferOfAnotherSizeIsAnError() {
        L2Adapter adapter = create("a", "1 KiB");
        adapter.store(List.of(key(1)), List.of(slice(10, 1))).join();
        BatchResult result = adapter.load(List.of(key(1)), List.of(slice(20, 0))).join();
        assertThat(result.results()).containsExactly(KeyResult.ERROR);
        assertThat(result.error(0).orElseThrow().kind()).isEqualTo(ErrorKind.PERMANENT);
        assertThat(result.firstError()).contains("10 bytes");
    }

    @Test
    void evictsTheLeastRecentlyUsedUnlockedObject() {
        L2Adapter adapter = create("a", "300");
        List<ObjectKey> deleted = new ArrayList<>();
        adapter.addListener(new L2AdapterListener() {
            @Override
            public void onKeysDeleted(List<ObjectKey> keys) {
                deleted.addAll(keys);
            }
        });
        adapter.store(List.of(key(1), key(2), key(3)), List.of(slice(100, 1), slice(100, 2), slice(100, 3))).join();
        adapter.lookupAndLock(List.of(key(1))).join();
        adapter.load(List.of(key(2)), List.of(slice(100, 0))).join();
        assertThat(adapter.store(List.of(key(4)), List.of(slice(100, 4))).join().allOk()).isTrue();
        assertThat(deleted).containsExactly(key(3));
        assertThat(adapter.lookupAndLock(List.of(key(1), key(2), key(3), key(4))).join().results())
                .containsExactly(KeyResult.OK, KeyResult.OK, KeyResult.MISSING, KeyResult.OK);
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(300);
        assertThat(adapter.usage().usageFraction()).isEqualTo(1.0);
    }

    @Test
    void anObjectThatCannotFitFailsOnlyItsKey() {
        L2Adapter adapter = create("a", "150");
        BatchResult result = adapter.store(List.of(key(1), key(2)), List.of(slice(100, 1), slice(200, 2))).join();
        assertThat(result.results()).containsExactly(KeyResult.OK, KeyResult.ERROR);
        assertThat(result.error(1).orElseThrow().kind()).isEqualTo(ErrorKind.PERMANENT);
        assertThat(result.firstError()).contains("exceeds the capacity");
        adapter.lookupAndLock(List.of(key(1))).join();
        assertThat(adapter.store(List.of(key(3)), List.of(slice(100, 3))).join().error(0)).contains(KeyError.of(
                ErrorKind.NO_CAPACITY, "capacity of 150 bytes exhausted: every object in it is locked by a lookup"));
        adapter.unlock(List.of(key(1)));
        assertThat(adapter.store(List.of(key(3)), List.of(slice(100, 3))).join().allOk()).isTrue();
    }

    @Test
    void deleteReportsMissingKeysAndReturnsUsageToItsBaseline() {
        L2Adapter adapter = create("a", "1 KiB");
        adapter.store(List.of(key(1), key(2)), List.of(slice(10, 1), slice(20, 2))).join();
        assertThat(adapter.delete(List.of(key(1), key(9))).join().results()).containsExactly(KeyResult.OK, KeyResult.MISSING);
        assertThat(adapter.usage().totalBytesUsed()).isEqualTo(20);
        adapter.delete(List.of(key(2))).join();
        assertThat(adapter.usage().totalBytesUsed()).isZero();
    }

    @Test
    void namedInstancesDoNotShareObjects() {
        L2Adapter a = create("a", "1 KiB");
        L2Adapter b = create("b", "1 KiB");
        a.store(List.of(key(1)), List.of(slice(10, 1))).join();
        b.store(List.of(key(1)), List.of(slice(10, 50))).join();
        b.store(List.of(key(2)), List.of(slice(10, 2))).join();
        L1Slice fromA = slice(10, 0);
        a.load(List.of(key(1)), List.of(fromA)).join();
        assertThat(fromA.buffer().get(0)).isEqualTo((byte) 1);
        assertThat(a.lookupAndLock(List.of(key(2))).join().results()).containsExactly(KeyResult.MISSING);
        b.close();
        assertThat(a.lookupAndLock(List.of(key(1))).join().allOk()).isTrue();
        assertThat(a.usage().totalBytesUsed()).isEqualTo(10);
    }

    /** Loads copy out without the adapter's monitor while deletes and evictions free the memory. */
    @Test
    void concurrentLoadsNeverSeeFreedOrForeignBytes() throws Exception {
        L2Adapter adapter = create("a", "24 KiB");  // room for 6 of the 8 keys: stores evict too
        int threads = 4;
        int keys = 8;
        int size = 4096;
        List<List<L1Slice>> sources = new ArrayList<>();
        List<L1Slice> targets = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<L1Slice> own = new ArrayList<>();
            for (int k = 0; k < keys; k++) {
                own.add(slice(size, k * 16));
            }
            sources.add(own);
            targets.add(arena.allocate(size));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Integer>> loadedPerThread = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<L1Slice> own = sources.get(t);
            L1Slice target = targets.get(t);
            long seed = t;
            loadedPerThread.add(pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                int verified = 0;
                for (int i = 0; i < 3000; i++) {
                    int k = random.nextInt(keys);
                    switch (random.nextInt(3)) {
                        case 0 -> adapter.store(List.of(key(k)), List.of(own.get(k))).join();
                        case 1 -> adapter.delete(List.of(key(k))).join();
                        default -> {
                            if (adapter.load(List.of(key(k)), List.of(target)).join().allOk()) {
                                assertThat(target.buffer()).isEqualTo(own.get(k).buffer());
                                verified++;
                            }
                        }
                    }
                }
                return verified;
            }));
        }
        int verified = 0;
        for (Future<Integer> loaded : loadedPerThread) {
            verified += loaded.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(verified).isPositive();
        assertThat(adapter.usage().totalBytesUsed()).isLessThanOrEqualTo(24 * 1024);
        adapter.close();
    }

    @Test
    void emptyBatchesCompleteAtOnce() {
        L2Adapter adapter = create("a", "1 KiB");
        assertThat(adapter.store(List.of(), List.of()).join()).isEqualTo(BatchResult.empty());
        assertThat(adapter.lookupAndLock(List.of()).join().size()).isZero();
    }

    @Test
    void aClosedAdapterFailsEveryOperationAndClosesTwice() {
        L2Adapter adapter = create("a", "1 KiB");
        adapter.close();
        adapter.close();
        assertThatThrownBy(() -> adapter.lookupAndLock(List.of(key(1))).join())
                .isInstanceOf(CompletionException.class).hasMessageContaining("memory adapter 'a' is closed");
        assertThat(adapter.status()).containsEntry("is_healthy", false).containsEntry("type", "memory");
        assertThat(adapter.health().healthy()).isFalse();
        assertThat(adapter.health().reason()).isEqualTo("closed");
    }

    @Test
    void listsItsKeysInPagesOfAStableOrderFilteredByModel() {
        L2Adapter adapter = create("a", "1 KiB");
        assertThat(adapter.supportsKeyListing()).isTrue();
        assertThat(adapter.supportsGlobalEviction()).as("it has a capacity").isTrue();
        List<ObjectKey> keys = new ArrayList<>();
        List<L1Slice> slices = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            keys.add(key(i));
            keys.add(new ObjectKey(new byte[] {(byte) i}, "other", 0));
            slices.add(slice(4, i));
            slices.add(slice(4, i));
        }
        adapter.store(keys, slices).join();

        List<ObjectKey> listed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            KeyPage page = adapter.listKeys("m", 2, cursor);
            assertThat(page.keys()).hasSizeLessThanOrEqualTo(2);
            listed.addAll(page.keys());
            cursor = page.nextCursor().orElse(null);
            pages++;
        } while (cursor != null);
        assertThat(listed).containsExactlyInAnyOrder(key(0), key(1), key(2), key(3), key(4)).doesNotHaveDuplicates();
        assertThat(pages).isEqualTo(3);
        assertThat(adapter.listKeys("m", 10, null).keys()).as("the same order every time").isEqualTo(listed);
        assertThat(adapter.listKeys(null, 100, null).keys()).hasSize(10);
        assertThat(adapter.listKeys("nobody", 100, null)).isEqualTo(new KeyPage(List.of(), Optional.empty()));
        assertThatThrownBy(() -> adapter.listKeys("m", 0, null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void mismatchedKeysAndObjectsAreRejected() {
        L2Adapter adapter = create("a", "1 KiB");
        assertThatThrownBy(() -> adapter.store(List.of(key(1)), List.of()))
                .hasMessage("keys and objects size mismatch: 1 keys, 0 objects");
    }

    @Test
    void configErrorsNameTheKeyAndValue() {
        assertThatThrownBy(() -> parse(Map.of("type", "memory", "capacity", "big")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("test ('memory'): Invalid value at 'capacity': No number in size-in-bytes value 'big'");
        assertThatThrownBy(() -> parse(Map.of("type", "memory", "capacity", 0)))
                .hasMessage("test ('memory'): capacity must be positive, got 0");
        assertThatThrownBy(() -> parse(Map.of("type", "memory", "capacty", 1)))
                .hasMessage("test ('memory'): unknown key 'capacty' (memory takes: capacity)");
        assertThat(parse(Map.of("type", "memory")).capacity()).isEqualTo(1L << 30);
    }
}
