package io.kvtier.hostlib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InstancesTest {
    private static final List<ObjectKey> TWO_KEYS = List.of(key(1), key(2));

    private final HeldProvider provider = new HeldProvider();
    private final L2AdapterRegistry registry = L2AdapterRegistry.of(provider);
    private final L1Arena arena = L1Arena.allocate(1 << 16, 4096, false);

    @AfterEach
    void freeArena() {
        arena.close();
    }

    private static ObjectKey key(int i) {
        return new ObjectKey(new byte[] {(byte) i}, "m", 0);
    }

    private List<ConfiguredAdapter<?>> declare(String... names) {
        return Declarations.load(registry, List.of(),
                List.of(names).stream().map(n -> "{\"type\":\"held\",\"name\":\"" + n + "\"}").toList());
    }

    private Instances create(Duration batchBound, String... names) {
        return Instances.create(declare(names), arena, new MetricRegistry(), batchBound);
    }

    @Test
    void anInstanceAddedAtRuntimeRunsBesideTheOthersAndANameRunsOnce() {
        try (Instances instances = create(Instances.DEFAULT_BATCH_BOUND, "a")) {
            Instances.Instance b = instances.add(declare("b").get(0));
            assertThat(instances.all()).extracting(Instances.Instance::name).containsExactly("a", "b");
            assertThat(instances.select("b")).isSameAs(b);
            assertThatThrownBy(() -> instances.add(declare("a").get(0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--l2-adapter #1: an instance named 'a' is already running (declared at --l2-adapter #1)");
            assertThat(provider.created).hasSize(2);
        }
    }

    @Test
    void aRemovalWaitsForTheBatchesInFlightThenCloses() throws Exception {
        try (Instances instances = create(Instances.DEFAULT_BATCH_BOUND, "a", "b")) {
            L2Adapter a = instances.select("a").adapter();
            HeldProvider.HeldAdapter held = provider.created.get(0);
            CompletableFuture<BatchResult> store = a.store(TWO_KEYS, List.of());
            CompletableFuture<BatchResult> delete = a.delete(TWO_KEYS);
            CompletableFuture<Instances.Removal> removal = CompletableFuture.supplyAsync(
                    () -> instances.remove("a", Duration.ofMinutes(1)));
            // The removal has begun once new batches are refused; it must not close while two are in flight.
            CompletableFuture<BatchResult> refused = a.lookupAndLock(TWO_KEYS);
            while (!refused.isCompletedExceptionally()) {
                Thread.onSpinWait();
                refused = a.lookupAndLock(TWO_KEYS);
            }
            assertThat(removal).isNotDone();
            assertThat(held.events).isEmpty();
            held.completeAll();
            Instances.Removal removed = removal.get(10, TimeUnit.SECONDS);
            assertThat(removed.drained()).isTrue();
            assertThat(removed.message()).isEqualTo("removed instance 'a': every batch drained before it closed");
            // Every batch issued before the refusals began (the two, and lookups of the loop) completed first.
            assertThat(held.events).hasSize(held.batches.size() + 1).endsWith("closed").containsOnlyOnce("closed");
            assertThat(store).isCompleted();
            assertThat(delete).isCompleted();
            assertThat(instances.all()).extracting(Instances.Instance::name).containsExactly("b");
            assertThat(provider.created.get(1).events).isEmpty();
        }
    }

    @Test
    void newBatchesOnARemovedInstanceFailAtOnceNamingIt() {
        try (Instances instances = create(Instances.DEFAULT_BATCH_BOUND, "a")) {
            L2Adapter a = instances.select("a").adapter();
            instances.remove("a", Duration.ofSeconds(1));
            assertThat(a.store(TWO_KEYS, List.of())).isCompletedExceptionally();
            assertThatThrownBy(() -> a.load(List.of(key(1)), List.of()).join())
                    .hasCauseInstanceOf(IllegalStateException.class)
                    .hasMessageEndingWith("instance 'a' has been removed from the running instances: its load of 1 key is refused");
            assertThat(provider.created.get(0).batches).isEmpty();
            assertThatThrownBy(() -> instances.remove("a", Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("no instance named 'a' is running (running: )");
        }
    }

    @Test
    void afterTheDrainBoundARemovalClosesAnywayAndSaysHowManyWereInFlight() {
        try (Instances instances = create(Instances.DEFAULT_BATCH_BOUND, "a")) {
            L2Adapter a = instances.select("a").adapter();
            a.store(TWO_KEYS, List.of());
            a.load(TWO_KEYS, List.of());
            a.delete(TWO_KEYS);
            provider.created.get(0).batches.get(1).complete(BatchResult.empty());
            Instances.Removal removed = instances.remove("a", Duration.ofMillis(50));
            assertThat(removed.stillInFlight()).isEqualTo(2);
            assertThat(removed.message()).isEqualTo("removed instance 'a': closed with 2 batches still in flight after 50 ms");
            assertThat(provider.created.get(0).events).containsExactly("closed");
        }
    }

    @Test
    void aBatchPendingBeyondTheBoundFailsNamingTheInstanceTheOperationAndTheBoundAndStaysTracked() {
        try (Instances instances = create(Duration.ofMillis(100), "slow")) {
            CompletableFuture<BatchResult> store = instances.select("slow").adapter().store(TWO_KEYS, List.of());
            assertThatThrownBy(() -> store.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(BatchTimeoutException.class)
                    .hasMessage("instance 'slow': store of 2 keys did not complete within 0.1 s (the host's bound on a batch);"
                            + " the adapter may be hung");
            // The adapter still runs the batch: a removal counts it as in flight.
            assertThat(instances.remove("slow", Duration.ZERO).stillInFlight()).isEqualTo(1);
        }
    }

    @Test
    void aCallerCancellingItsFutureDoesNotHideTheBatchFromTheDrain() {
        try (Instances instances = create(Instances.DEFAULT_BATCH_BOUND, "a")) {
            instances.select("a").adapter().store(TWO_KEYS, List.of()).cancel(true);
            assertThat(provider.created.get(0).batches.get(0)).isNotDone();
            assertThat(instances.remove("a", Duration.ZERO).stillInFlight()).isEqualTo(1);
        }
    }

    @Test
    void everyPluginCallRunsWithThePluginsClassLoaderAsTheContextLoaderAndRestoresTheCallers() throws Exception {
        ClassLoader plugin = HeldProvider.class.getClassLoader();
        try (URLClassLoader callers = new URLClassLoader("caller", new URL[0], null)) {
            Thread.currentThread().setContextClassLoader(callers);
            try {
                L2AdapterRegistry loaded = L2AdapterRegistry.of(provider);
                List<ConfiguredAdapter<?>> configured = Declarations.load(loaded, List.of(), List.of("{\"type\":\"held\"}"));
                configured.get(0).describe();
                try (Instances instances = Instances.create(configured, arena, new MetricRegistry())) {
                    L2Adapter adapter = instances.all().get(0).adapter();
                    adapter.store(TWO_KEYS, List.of());
                    adapter.usage();
                    assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(callers);
                }
                assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(callers);
            } finally {
                Thread.currentThread().setContextClassLoader(plugin);
            }
        }
        // parseConfig, describe, create, store, usage, close; type() of L2AdapterRegistry.of is the test's own call
        assertThat(provider.contextLoaders.subList(provider.contextLoaders.size() - 6, provider.contextLoaders.size()))
                .containsOnly(plugin);
    }
}
