package io.kvtier.mooncake;

import static io.kvtier.mooncake.Fixtures.await;
import static io.kvtier.mooncake.Fixtures.filled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.MetricRegistryListener;
import com.google.inject.AbstractModule;
import com.google.inject.Key;
import com.google.inject.Module;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import com.google.inject.Singleton;
import com.google.inject.name.Names;
import io.kvtier.mooncake.lanes.WorkerLanes;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What each instance's injector makes and its {@link Lifecycle} releases: a creation that fails at
 * any step, close, and two instances side by side. Failing steps come in through override modules.
 */
class InstanceLifecycleTest {
    /** Close releases in this order: the probes stop, the gauges go, the lanes drain, then the rest. */
    private static final List<String> RELEASE_ORDER = List.of("released node probe", "released master probe",
            "released Gauges", "released lanes", "released ScheduledExecutorService", "released L1Registration",
            "released MooncakeClient", "released InFlight", "released ExpiryQueue");

    private final MetricRegistry metrics = new MetricRegistry();
    private final OffHeapRegion l1 = new OffHeapRegion(8192);
    private final Logger lifecycleLog = Logger.getLogger(Lifecycle.class.getName());
    private final List<String> released = new ArrayList<>();
    private final Handler recorder = new Handler() {
        @Override
        public void publish(LogRecord record) {
            Object[] parameters = record.getParameters();
            if (record.getLevel() == Level.FINE && parameters != null && parameters.length == 3) {
                synchronized (released) {
                    released.add(parameters[0] + ": " + parameters[1] + " " + parameters[2]);
                }
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private Level levelBefore;
    private RecordingNative rec;
    private final AtomicInteger failingCalls = new AtomicInteger();

    @BeforeEach
    void recordReleases() {
        levelBefore = lifecycleLog.getLevel();
        lifecycleLog.setLevel(Level.FINE);
        lifecycleLog.addHandler(recorder);
    }

    @AfterEach
    void stopRecording() {
        lifecycleLog.removeHandler(recorder);
        lifecycleLog.setLevel(levelBefore);
    }

    private MooncakeStoreAdapter create(String name, Module replacing, Object... body) {
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec = new RecordingNative(lib), replacing);
        Map<String, Object> declared = TestDouble.body(body);
        declared.put("protocol", "rdma");
        declared.put("testdouble_max_mr_size", 4096);
        return TestDouble.create(provider, declared, context(name));
    }

    private AdapterContext context(String name) {
        return TestDouble.context(name, metrics, Optional.of(l1.desc(true)));
    }

    /** Replaces the part bound to {@code key} with one that counts its calls and throws {@code thrown}. */
    private <T> Module failing(Key<T> key, RuntimeException thrown) {
        return binder -> binder.bind(key).toProvider((Provider<T>) () -> {
            failingCalls.incrementAndGet();
            throw thrown;
        }).in(Scopes.SINGLETON);
    }

    private List<String> releasedBy(String name) {
        synchronized (released) {
            return released.stream().filter(line -> line.startsWith(name + ": ")).map(line -> line.substring(name.length() + 2)).toList();
        }
    }

    private static List<String> threadsOf(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(thread -> thread.startsWith("kvtier-" + name + "-")).toList();
    }

    /** No thread of the instance is left once the ones it stopped have ended; none is waited on long. */
    private static void assertNoThreadLeft(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!threadsOf(name).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(threadsOf(name)).as("threads of '%s' left", name).isEmpty();
    }

    /** What a failed creation must leave: nothing but what was released, and a name that can be used again. */
    private void assertFailedCleanly(String name, List<String> releasedNewestFirst) throws InterruptedException {
        assertThat(releasedBy(name)).as("released once, newest first").isEqualTo(releasedNewestFirst);
        assertNoThreadLeft(name);
        assertThat(metrics.getGauges().keySet()).noneMatch(gauge -> gauge.startsWith("kvtier.l2." + name + "."));
        try (MooncakeStoreAdapter again = create(name, binder -> {})) {
            assertThat(again.status()).containsEntry("is_healthy", true);
        }
    }

    @Test
    void aClientThatCannotBeMadeLeavesNothing() throws InterruptedException {
        assertThatThrownBy(() -> create("setup", binder -> {}, "testdouble_fail_setup", true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Mooncake setup_internal failed")
                .hasMessageNotContaining("Guice");
        assertThat(rec.creates).as("the client's provider ran once").hasValue(1);
        assertThat(rec.registered).as("nothing after the client is made").isEmpty();
        assertThat(rec.destroys).hasValue(0);
        assertFailedCleanly("setup", List.of("released InFlight", "released ExpiryQueue"));
    }

    @Test
    void aBlockThatCannotBeRegisteredLeavesNothing() throws InterruptedException {
        assertThatThrownBy(() -> create("block", binder -> {}, "testdouble_fail_register_at", 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Mooncake preregister_l1_memory failed");
        assertThat(rec.registered).as("each block tried once, up to the failing one").hasSize(2);
        assertThat(rec.unregistered).containsExactly(l1.address);
        assertThat(rec.destroys).hasValue(1);
        assertFailedCleanly("block", List.of("released MooncakeClient", "released InFlight", "released ExpiryQueue"));
    }

    @Test
    void lanesThatCannotBeMadeLeaveNothing() throws InterruptedException {
        // As a thread factory fails when the system refuses a thread; an Error reaches the host as it is.
        OutOfMemoryError refused = new OutOfMemoryError("unable to create native thread: possibly out of memory");
        Module noThread = binder -> binder.bind(WorkerLanes.class).toProvider((Provider<WorkerLanes>) () -> {
            failingCalls.incrementAndGet();
            throw refused;
        }).in(Scopes.SINGLETON);
        assertThatThrownBy(() -> create("lanes", noThread)).isSameAs(refused);
        assertThat(failingCalls).hasValue(1);
        assertThat(rec.destroys).hasValue(1);
        assertThat(rec.unregistered).hasSize(2);
        assertFailedCleanly("lanes", List.of("released ScheduledExecutorService", "released L1Registration",
                "released MooncakeClient", "released InFlight", "released ExpiryQueue"));
    }

    @Test
    void takenMetricNamesLeaveNothing() throws InterruptedException {
        String taken = "kvtier.l2.taken.healthy";
        AtomicInteger gaugesAdded = new AtomicInteger();
        metrics.addListener(new MetricRegistryListener.Base() {
            @Override
            public void onGaugeAdded(String name, Gauge<?> gauge) {
                gaugesAdded.incrementAndGet();
            }
        });
        metrics.register(taken, (Gauge<Integer>) () -> 7);
        gaugesAdded.set(0);
        assertThatThrownBy(() -> create("taken", binder -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("mooncake_store instance 'taken': its metric names are already taken (")
                .hasMessageNotContaining("Guice");
        // Queue depths of the shared and store pools, abandoned calls, registered bytes, segment size: then the clash.
        assertThat(gaugesAdded).as("the gauges' provider ran once").hasValue(5);
        assertThat(metrics.getGauges()).containsOnlyKeys(taken);
        assertThat(threadsOf("taken")).noneMatch(thread -> thread.endsWith("-probe"));
        assertThat(rec.destroys).hasValue(1);
        metrics.remove(taken);
        assertFailedCleanly("taken", List.of("released lanes", "released ScheduledExecutorService",
                "released L1Registration", "released MooncakeClient", "released InFlight", "released ExpiryQueue"));
    }

    @Test
    void aProbeThatCannotStartLeavesNothing() throws InterruptedException {
        IllegalStateException refused = new IllegalStateException("mooncake_store: the node probe cannot start");
        assertThatThrownBy(() -> create("probe", failing(Key.get(NativeCalls.class, Names.named("node probe")), refused)))
                .isSameAs(refused);
        assertThat(failingCalls).hasValue(1);
        assertThat(rec.destroys).hasValue(1);
        assertFailedCleanly("probe", RELEASE_ORDER.subList(1, RELEASE_ORDER.size()));
    }

    @Test
    void aBrokenGraphFailsBeforeAnyNativeCall() {
        Module broken = new AbstractModule() {
            @Provides
            @Singleton
            WorkerLanes lanes(Runnable neverBound) {
                throw new AssertionError("never made");
            }
        };
        assertThatThrownBy(() -> create("broken", broken))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("mooncake_store: cannot wire the instance: ");
        assertThat(rec.creates).hasValue(0);
        assertThat(releasedBy("broken")).isEmpty();
    }

    @Test
    void closeReleasesInOrderOnce() throws Exception {
        MooncakeStoreAdapter adapter = create("order", binder -> {});
        adapter.close();
        adapter.close();
        assertThat(releasedBy("order")).isEqualTo(RELEASE_ORDER);
        assertThat(rec.destroys).hasValue(1);
        assertNoThreadLeft("order");
    }

    @Test
    void closeFromALaneThreadAndAgainReleasesOnce() throws Exception {
        MooncakeStoreAdapter adapter = create("lane", binder -> {});
        await(adapter.lookupAndLock(List.of(TestDouble.key(0))).thenRun(adapter::close));
        adapter.close();
        assertThat(rec.destroyed.await(30, TimeUnit.SECONDS)).isTrue();
        assertNoThreadLeft("lane");
        assertThat(releasedBy("lane")).isEqualTo(RELEASE_ORDER);
        assertThat(rec.destroys).hasValue(1);
    }

    @Test
    void twoInstancesShareNothing() throws Exception {
        MooncakeStoreProvider provider = TestDouble.provider(lib -> rec = new RecordingNative(lib));
        Map<String, Object> body = TestDouble.body();
        MooncakeStoreAdapter a = TestDouble.create(provider, body, TestDouble.context("a", metrics, Optional.empty()));
        MooncakeStoreAdapter b = TestDouble.create(provider, body, TestDouble.context("b", metrics, Optional.empty()));
        assertThat(rec.creates).as("a client each").hasValue(2);
        List<ObjectKey> keys = Fixtures.keys(0, 2);
        OffHeapRegion region = new OffHeapRegion(2 * Fixtures.SIZE);
        await(a.store(keys, filled(region, 2, 0)));
        await(b.lookupAndLock(keys));
        assertThat(a.usage().totalBytesUsed()).isEqualTo(2L * Fixtures.SIZE);
        assertThat(b.usage().totalBytesUsed()).isZero();
        assertThat(threadsOf("a")).isNotEmpty().doesNotContainAnyElementsOf(threadsOf("b"));
        assertThat(metrics.getTimers()).containsKeys("kvtier.l2.a.store", "kvtier.l2.b.store");

        a.close();

        assertThat(rec.destroys).hasValue(1);
        assertNoThreadLeft("a");
        assertThat(metrics.getGauges().keySet()).noneMatch(gauge -> gauge.startsWith("kvtier.l2.a."))
                .anyMatch(gauge -> gauge.startsWith("kvtier.l2.b."));
        // b still serves, over the same cluster: a's objects are there for it.
        assertThat(await(b.load(keys, Fixtures.empty(new OffHeapRegion(2 * Fixtures.SIZE), 2))).allOk()).isTrue();
        assertThat(b.status()).containsEntry("is_healthy", true).containsEntry("closed", false);
        assertThat(threadsOf("b")).isNotEmpty();
        b.close();
        assertThat(rec.destroys).hasValue(2);
    }

    /** Instances created while others serve are wired the same way: their own injector, their own parts. */
    @Test
    void instancesCreatedAtRuntimeAreWiredAlike() {
        MooncakeStoreProvider provider = TestDouble.provider();
        try (MooncakeStoreAdapter first = TestDouble.create(provider, TestDouble.body(), TestDouble.context("r1", metrics, Optional.empty()))) {
            await(first.lookupAndLock(List.of(TestDouble.key(0))));
            try (MooncakeStoreAdapter later = TestDouble.create(provider, TestDouble.body(), TestDouble.context("r2", metrics, Optional.empty()))) {
                assertThat(later.status()).containsEntry("instance", "r2").containsEntry("is_healthy", true);
            }
            assertThat(first.status()).containsEntry("closed", false);
        }
        assertThat(releasedBy("r2")).isEqualTo(RELEASE_ORDER);
        assertThat(releasedBy("r1")).isEqualTo(RELEASE_ORDER);
    }
}
