package io.kvtier.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.Health;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyOutcome;
import io.kvtier.spi.KeyPage;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link L2Adapter} contract as tests. A plugin's test class extends it and implements
 * {@link #createAdapter}; every test then runs against that adapter:
 *
 * <ul>
 *   <li>an empty batch completes at once, with an empty result;</li>
 *   <li>a closed adapter fails every operation, and {@code close()} is idempotent;</li>
 *   <li>keys and objects of different sizes throw {@link IllegalArgumentException};</li>
 *   <li>an absent key is MISSING to lookups, loads and deletes, never an ERROR; an ERROR is never
 *       MISSING and carries its {@link KeyError};</li>
 *   <li>per-key results come in key order, for a mix of present and absent keys;</li>
 *   <li>a store reports its bytes per key, counted only on a key's first store, and
 *       {@link BatchResult#newBytes()} is their sum; a key stored twice keeps its first value;</li>
 *   <li>a load is OK only into a slice of exactly the object's length, and then reports it;</li>
 *   <li>{@code close()} completes every batch that was in flight before it returns;</li>
 *   <li>listeners hear stored keys with their sizes (0 for a re-store), loaded keys as accessed
 *       and deleted keys, before the batch's future completes;</li>
 *   <li>{@link L2Adapter#health()} is healthy while open and unhealthy, with a reason, after close;</li>
 *   <li>{@link L2Adapter#listKeys} pages in a stable order with a cursor and a model filter and
 *       rejects a page size below 1, when {@link L2Adapter#supportsKeyListing()}; otherwise it
 *       throws {@link UnsupportedOperationException}.</li>
 * </ul>
 *
 * <p>What the kit asks of the store: a fresh adapter is healthy, and holds every object a test
 * stores until the test deletes it or closes the adapter. A test stores at most
 * {@link #MAX_OBJECTS_HELD} objects of at most {@link #objectSize()} bytes in one adapter, so a
 * store with a capacity needs that much. Keys are unique to each test, so adapters may share one
 * store (a cluster) across tests, and even across runs.
 */
public abstract class L2AdapterContract {
    /** The most objects one test keeps in one adapter at once. */
    public static final int MAX_OBJECTS_HELD = 16;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String MODEL = "kvtier-contract";
    private static final String OTHER_MODEL = "kvtier-contract-other";
    private static final int CLOSE_THREADS = 4;

    private final long run = ThreadLocalRandom.current().nextLong();
    private TestL1Region l1;
    private final List<L2Adapter> adapters = new ArrayList<>();
    private int nextKey;

    /**
     * A new adapter over {@code l1}, the region every slice of the test lies in, as a host hands it
     * over in {@code AdapterContext.l1()}. The kit closes it after the test.
     */
    protected abstract L2Adapter createAdapter(L1MemoryDesc l1) throws Exception;

    /**
     * A new adapter for the close test, whose batches take long enough that close() meets some of
     * them in flight (a store double with a delay, say). The default is {@link #createAdapter}.
     */
    protected L2Adapter createSlowAdapter(L1MemoryDesc l1) throws Exception {
        return createAdapter(l1);
    }

    /** The size of the objects the kit stores; smaller ones are a half and a quarter of it. */
    protected int objectSize() {
        return 4096;
    }

    @BeforeEach
    final void allocateL1() {
        l1 = new TestL1Region(96 * (objectSize() + 64));
    }

    @AfterEach
    final void closeAdapters() {
        adapters.forEach(L2Adapter::close);
    }

    private L2Adapter adapter() throws Exception {
        return opened(createAdapter(l1.desc()));
    }

    private L2Adapter opened(L2Adapter adapter) {
        assertThat(adapter).as("the created adapter").isNotNull();
        adapters.add(adapter);
        return adapter;
    }

    private ObjectKey key(String model) {
        byte[] hash = ByteBuffer.allocate(12).putLong(run).putInt(nextKey++).array();
        return new ObjectKey(hash, model, 0);
    }

    private List<ObjectKey> keys(int n) {
        return IntStream.range(0, n).mapToObj(i -> key(MODEL)).toList();
    }

    private List<L1Slice> filled(int n, long seed) {
        return IntStream.range(0, n).mapToObj(i -> l1.filled(objectSize(), seed + i)).toList();
    }

    private List<L1Slice> empty(int n) {
        return IntStream.range(0, n).mapToObj(i -> l1.slice(objectSize())).toList();
    }

    private static BatchResult await(CompletableFuture<BatchResult> future) throws Exception {
        BatchResult result = future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(result).as("a batch's result").isNotNull();
        return result;
    }

    private static BatchResult await(CompletableFuture<BatchResult> future, int keys) throws Exception {
        BatchResult result = await(future);
        assertThat(result.size()).as("one outcome per key").isEqualTo(keys);
        return result;
    }

    private static BatchResult awaitAllOk(CompletableFuture<BatchResult> future, int keys) throws Exception {
        BatchResult result = await(future, keys);
        assertThat(result.results()).as("outcomes (first error: %s)", result.firstError()).containsOnly(KeyResult.OK);
        return result;
    }

    private static void assertFailed(String operation, CompletableFuture<BatchResult> future) {
        assertThatThrownBy(() -> future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .as("%s on a closed adapter", operation)
                .isInstanceOf(ExecutionException.class);
    }

    @Test
    void anEmptyBatchCompletesAtOnceWithAnEmptyResult() throws Exception {
        L2Adapter adapter = adapter();
        List<CompletableFuture<BatchResult>> futures = List.of(adapter.store(List.of(), List.of()),
                adapter.lookupAndLock(List.of()), adapter.load(List.of(), List.of()), adapter.delete(List.of()));
        for (CompletableFuture<BatchResult> future : futures) {
            assertThat(future).as("an empty batch's future, as returned").isDone();
            BatchResult result = future.join();
            assertThat(result.outcomes()).isEmpty();
            assertThat(result.newBytes()).isZero();
        }
    }

    @Test
    void aClosedAdapterFailsEveryOperationAndCloseIsIdempotent() throws Exception {
        L2Adapter adapter = adapter();
        List<ObjectKey> keys = keys(2);
        awaitAllOk(adapter.store(keys, filled(2, 1)), 2);
        adapter.close();
        assertThatCode(adapter::close).as("a second close").doesNotThrowAnyException();

        assertFailed("store", adapter.store(keys(1), filled(1, 3)));
        assertFailed("lookupAndLock", adapter.lookupAndLock(keys));
        assertFailed("load", adapter.load(keys, empty(2)));
        assertFailed("delete", adapter.delete(keys));
        assertThatCode(() -> adapter.unlock(keys)).as("unlock after close").doesNotThrowAnyException();
        if (adapter.supportsKeyListing()) {
            assertThatThrownBy(() -> adapter.listKeys(null, 10, null)).as("listKeys after close")
                    .isInstanceOf(IllegalStateException.class);
        }
        assertThatCode(adapter::close).as("a third close").doesNotThrowAnyException();
    }

    @Test
    void keysAndObjectsOfDifferentSizesAreRejected() throws Exception {
        L2Adapter adapter = adapter();
        List<ObjectKey> two = keys(2);
        assertThatThrownBy(() -> adapter.store(two, filled(1, 1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> adapter.store(two.subList(0, 1), filled(2, 1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> adapter.load(two, empty(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> adapter.load(two.subList(0, 1), empty(2))).isInstanceOf(IllegalArgumentException.class);
        assertThat(await(adapter.lookupAndLock(two), 2).results())
                .as("a rejected store stores nothing").containsOnly(KeyResult.MISSING);
    }

    @Test
    void anAbsentKeyIsMissingNeverAnError() throws Exception {
        L2Adapter adapter = adapter();
        List<ObjectKey> absent = keys(3);
        assertThat(await(adapter.lookupAndLock(absent), 3).results()).containsOnly(KeyResult.MISSING);
        assertThat(await(adapter.load(absent, empty(3)), 3).results()).containsOnly(KeyResult.MISSING);
        assertThat(await(adapter.delete(absent), 3).results()).containsOnly(KeyResult.MISSING);
        assertThatCode(() -> adapter.unlock(absent)).as("unlock of keys never locked").doesNotThrowAnyException();
    }

    @Test
    void aLoadIsOkOnlyIntoASliceOfTheObjectsLengthAndAnErrorIsNeverMissing() throws Exception {
        L2Adapter adapter = adapter();
        List<ObjectKey> keys = keys(1);
        L1Slice object = l1.filled(objectSize(), 5);
        awaitAllOk(adapter.store(keys, List.of(object)), 1);

        for (int length : new int[] {objectSize() / 2, objectSize() * 2}) {
            BatchResult wrong = await(adapter.load(keys, List.of(l1.slice(length))), 1);
            assertThat(wrong.get(0)).as("a load of a %d-byte object into %d bytes", objectSize(), length)
                    .isEqualTo(KeyResult.ERROR);
            KeyError error = wrong.error(0).orElseThrow();
            assertThat(error.message()).as("the error's message").isNotBlank();
            assertThat(wrong.outcomes().get(0).bytes()).isZero();
        }

        L1Slice right = l1.slice(objectSize());
        BatchResult loaded = awaitAllOk(adapter.load(keys, List.of(right)), 1);
        assertThat(loaded.outcomes().get(0).bytes()).as("bytes loaded").isEqualTo(objectSize());
        assertThat(TestL1Region.bytes(right)).isEqualTo(TestL1Region.bytes(object));
    }

    @Test
    void perKeyResultsComeInKeyOrder() throws Exception {
        L2Adapter adapter = adapter();
        List<ObjectKey> keys = keys(6);
        List<ObjectKey> present = List.of(keys.get(0), keys.get(3), keys.get(4));
        List<L1Slice> objects = filled(3, 100);
        awaitAllOk(adapter.store(present, objects), 3);

        List<KeyResult> expected = List.of(KeyResult.OK, KeyResult.MISSING, KeyResult.MISSING, KeyResult.OK,
                KeyResult.OK, KeyResult.MISSING);
        assertThat(await(adapter.lookupAndLock(keys), 6).results()).as("lookup").isEqualTo(expected);
        adapter.unlock(keys);
        List<L1Slice> into = empty(6);
        BatchResult loaded = await(adapter.load(keys, into), 6);
        assertThat(loaded.results()).as("load").isEqualTo(expected);
        assertThat(TestL1Region.bytes(into.get(0))).isEqualTo(TestL1Region.bytes(objects.get(0)));
        assertThat(TestL1Region.bytes(into.get(3))).isEqualTo(TestL1Region.bytes(objects.get(1)));
        assertThat(TestL1Region.bytes(into.get(4))).isEqualTo(TestL1Region.bytes(objects.get(2)));
        assertThat(await(adapter.delete(keys), 6).results()).as("delete").isEqualTo(expected);
        assertThat(await(adapter.lookupAndLock(keys), 6).results()).as("lookup after delete")
                .containsOnly(KeyResult.MISSING);
    }

    @Test
    void aStoreReportsBytesPerKeyOnlyOnAKeysFirstStore() throws Exception {
        L2Adapter adapter = adapter();
        List<ObjectKey> keys = keys(3);
        int full = objectSize();
        int half = objectSize() / 2;
        int quarter = objectSize() / 4;
        BatchResult first = awaitAllOk(adapter.store(keys.subList(0, 2),
                List.of(l1.filled(full, 1), l1.filled(half, 2))), 2);
        assertThat(first.outcomes()).extracting(KeyOutcome::bytes).containsExactly((long) full, (long) half);
        assertThat(first.newBytes()).isEqualTo(full + half);

        BatchResult again = awaitAllOk(adapter.store(List.of(keys.get(1), keys.get(2)),
                List.of(l1.filled(half, 3), l1.filled(quarter, 4))), 2);
        assertThat(again.outcomes()).as("a re-stored key, then a new one").extracting(KeyOutcome::bytes)
                .containsExactly(0L, (long) quarter);
        assertThat(again.newBytes()).isEqualTo(quarter);
    }

    @Test
    void aKeyStoredTwiceKeepsItsFirstValue() throws Exception {
        L2Adapter adapter = adapter();
        List<ObjectKey> keys = keys(1);
        L1Slice first = l1.filled(objectSize(), 1);
        awaitAllOk(adapter.store(keys, List.of(first)), 1);
        awaitAllOk(adapter.store(keys, List.of(l1.filled(objectSize(), 2))), 1);
        L1Slice into = l1.slice(objectSize());
        awaitAllOk(adapter.load(keys, List.of(into)), 1);
        assertThat(TestL1Region.bytes(into)).as("the object after a second store").isEqualTo(TestL1Region.bytes(first));
    }

    /**
     * Batches run on {@value #CLOSE_THREADS} threads while close() is called. Every future returned
     * before close() began must be complete when it returns (with a result or failed); every later
     * one completes, and none is left pending.
     */
    @Test
    void closeCompletesEveryBatchInFlight() throws Exception {
        L2Adapter adapter = opened(createSlowAdapter(l1.desc()));
        Object lock = new Object();
        boolean[] closing = {false};
        List<CompletableFuture<BatchResult>> beforeClose = new ArrayList<>();
        List<CompletableFuture<BatchResult>> afterClose = new ArrayList<>();
        CountDownLatch everyThreadRan = new CountDownLatch(CLOSE_THREADS);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> threadFailures = new ArrayList<>();
        for (int t = 0; t < CLOSE_THREADS; t++) {
            List<ObjectKey> keys = keys(2);
            List<L1Slice> from = filled(2, 10L * t);
            List<L1Slice> into = empty(2);
            List<Function<L2Adapter, CompletableFuture<BatchResult>>> round = List.of(a -> a.store(keys, from),
                    a -> a.lookupAndLock(keys), a -> a.load(keys, into), a -> a.delete(keys));
            Thread thread = new Thread(() -> {
                try {
                    boolean counted = false;
                    while (true) {
                        List<CompletableFuture<BatchResult>> started = new ArrayList<>();
                        boolean last;
                        for (Function<L2Adapter, CompletableFuture<BatchResult>> operation : round) {
                            CompletableFuture<BatchResult> future = operation.apply(adapter);
                            started.add(future);
                            synchronized (lock) {
                                (closing[0] ? afterClose : beforeClose).add(future);
                            }
                        }
                        synchronized (lock) {
                            last = closing[0];
                        }
                        for (CompletableFuture<BatchResult> future : started) {
                            future.handle((result, error) -> null).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                        }
                        adapter.unlock(keys);
                        if (!counted) {
                            everyThreadRan.countDown();
                            counted = true;
                        }
                        if (last) {
                            return;
                        }
                    }
                } catch (TimeoutException e) {
                    synchronized (threadFailures) {
                        threadFailures.add(new AssertionError("a batch did not complete within " + WAIT, e));
                    }
                } catch (Throwable e) {
                    synchronized (threadFailures) {
                        threadFailures.add(e);
                    }
                }
            }, "kvtier-contract-close-" + t);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        assertThat(everyThreadRan.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("every thread ran a round").isTrue();

        List<CompletableFuture<BatchResult>> inFlight;
        synchronized (lock) {
            closing[0] = true;
            inFlight = List.copyOf(beforeClose);
        }
        adapter.close();
        long pending = inFlight.stream().filter(future -> !future.isDone()).count();
        assertThat(pending).as("of %d batches returned before close(), still pending when it returned", inFlight.size())
                .isZero();

        for (Thread thread : threads) {
            thread.join(WAIT.toMillis());
            assertThat(thread.isAlive()).as("%s ended", thread.getName()).isFalse();
        }
        synchronized (threadFailures) {
            if (!threadFailures.isEmpty()) {
                AssertionError failure = new AssertionError("a batch thread failed: " + threadFailures.get(0));
                threadFailures.forEach(failure::addSuppressed);
                throw failure;
            }
        }
        synchronized (lock) {
            assertThat(afterClose).as("batches started once close() had begun").allMatch(CompletableFuture::isDone);
        }
    }

    @Test
    void listenersHearStoredAccessedAndDeletedKeys() throws Exception {
        L2Adapter adapter = adapter();
        RecordingListener listener = new RecordingListener();
        adapter.addListener(listener);
        List<ObjectKey> keys = keys(3);
        int half = objectSize() / 2;

        awaitAllOk(adapter.store(keys.subList(0, 2), List.of(l1.filled(objectSize(), 1), l1.filled(half, 2))), 2);
        assertThat(stored(listener.take())).as("stored keys and their sizes")
                .containsExactly(Map.entry(keys.get(0), (long) objectSize()), Map.entry(keys.get(1), (long) half));

        awaitAllOk(adapter.store(List.of(keys.get(0), keys.get(2)), List.of(l1.filled(objectSize(), 3), l1.filled(half, 4))), 2);
        assertThat(stored(listener.take())).as("a re-stored key has size 0")
                .containsExactly(Map.entry(keys.get(0), 0L), Map.entry(keys.get(2), (long) half));

        BatchResult loaded = await(adapter.load(List.of(keys.get(0), key(MODEL)), List.of(l1.slice(objectSize()), l1.slice(objectSize()))), 2);
        assertThat(loaded.results()).containsExactly(KeyResult.OK, KeyResult.MISSING);
        assertThat(keysOf("accessed", listener.take())).as("keys loaded").containsExactly(keys.get(0));

        ObjectKey absent = key(MODEL);
        await(adapter.delete(List.of(keys.get(0), keys.get(1), absent)), 3);
        assertThat(keysOf("deleted", listener.take())).as("keys deleted").containsExactlyInAnyOrder(keys.get(0), keys.get(1));
    }

    private static List<Map.Entry<ObjectKey, Long>> stored(List<RecordingListener.Call> calls) {
        List<Map.Entry<ObjectKey, Long>> stored = new ArrayList<>();
        for (RecordingListener.Call call : calls) {
            assertThat(call.kind()).as("a listener call after a store").isEqualTo("stored");
            assertThat(call.sizes()).as("one size per stored key").hasSameSizeAs(call.keys());
            for (int i = 0; i < call.keys().size(); i++) {
                stored.add(Map.entry(call.keys().get(i), call.sizes().get(i)));
            }
        }
        return stored;
    }

    private static List<ObjectKey> keysOf(String kind, List<RecordingListener.Call> calls) {
        List<ObjectKey> keys = new ArrayList<>();
        for (RecordingListener.Call call : calls) {
            assertThat(call.kind()).as("a listener call").isEqualTo(kind);
            keys.addAll(call.keys());
        }
        return keys;
    }

    @Test
    void healthIsHealthyWhileOpenAndUnhealthyAfterClose() throws Exception {
        L2Adapter adapter = adapter();
        Health open = adapter.health();
        assertThat(open.healthy()).as("a new adapter's health (%s)", open.reason()).isTrue();
        adapter.close();
        Health closed = adapter.health();
        assertThat(closed.healthy()).as("health after close").isFalse();
        assertThat(closed.reason()).isNotBlank();
    }

    @Test
    void listKeysPagesWithACursorAndAModelFilterOrIsUnsupported() throws Exception {
        L2Adapter adapter = adapter();
        if (!adapter.supportsKeyListing()) {
            assertThatThrownBy(() -> adapter.listKeys(null, 10, null)).isInstanceOf(UnsupportedOperationException.class);
            return;
        }
        List<ObjectKey> ours = keys(5);
        List<ObjectKey> others = List.of(key(OTHER_MODEL), key(OTHER_MODEL));
        awaitAllOk(adapter.store(ours, filled(5, 1)), 5);
        awaitAllOk(adapter.store(others, filled(2, 9)), 2);

        List<ObjectKey> walk = walk(adapter, MODEL, 2);
        assertThat(walk).as("every key of one model").containsExactlyInAnyOrderElementsOf(ours);
        assertThat(walk(adapter, MODEL, 2)).as("a second walk, in the same order").isEqualTo(walk);
        assertThat(walk(adapter, MODEL, 3)).as("a walk with larger pages").isEqualTo(walk);
        assertThat(walk(adapter, null, 3)).as("every model's keys").containsAll(ours).containsAll(others)
                .doesNotHaveDuplicates();
        assertThatThrownBy(() -> adapter.listKeys(null, 0, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> adapter.listKeys(null, -1, null)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Every key the pages give, in page order. */
    private static List<ObjectKey> walk(L2Adapter adapter, String model, int pageSize) {
        List<ObjectKey> keys = new ArrayList<>();
        Set<String> cursors = new HashSet<>();
        String cursor = null;
        do {
            KeyPage page = adapter.listKeys(model, pageSize, cursor);
            assertThat(page.keys().size()).as("a page's size").isLessThanOrEqualTo(pageSize);
            if (model != null) {
                assertThat(page.keys()).as("keys of model %s", model).allMatch(key -> key.modelName().equals(model));
            }
            keys.addAll(page.keys());
            Optional<String> next = page.nextCursor();
            if (next.isPresent() && !cursors.add(next.get())) {
                fail("listKeys returned the cursor %s twice", next.get());
            }
            cursor = next.orElse(null);
        } while (cursor != null);
        return keys;
    }
}
