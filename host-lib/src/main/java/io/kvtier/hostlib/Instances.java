package io.kvtier.hostlib;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.L2Adapter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The running adapter instances of one host process, over one L1 arena: created together from
 * their declarations, added and removed one at a time while running, and closed together in
 * reverse order. Each {@link Instance#adapter()} runs plugin calls with the plugin's class loader
 * as the thread's context class loader, bounds every batch (see {@link BatchTimeoutException}),
 * and tracks its batches in flight, so that {@link #remove} can drain them.
 */
public final class Instances implements AutoCloseable {
    public record Instance(ConfiguredAdapter<?> declared, L2Adapter adapter) {
        public String name() {
            return declared.name();
        }

        /**
         * A warning when the instance is known to hold less than {@code needed} bytes, the most a
         * workload keeps in it ({@code what} says how that is computed), or empty.
         */
        public Optional<String> capacityWarning(long needed, String what, String consequence) {
            long capacity = adapter.usage().capacityBytes();
            if (capacity > 0 && needed > capacity) {
                return Optional.of("kvtier: warning: " + name() + " holds "
                        + ByteSizes.readable(capacity) + ", less than " + what + " ("
                        + ByteSizes.readable(needed) + "): " + consequence);
            }
            return Optional.empty();
        }
    }

    /** How long a batch may be pending before its future fails: beyond any bound an adapter keeps itself. */
    public static final Duration DEFAULT_BATCH_BOUND = Duration.ofMinutes(15);

    /**
     * What a removal says: whether every batch of the instance drained before it was closed.
     *
     * @param stillInFlight batches the adapter had not completed when it was closed
     */
    public record Removal(String name, int stillInFlight, Duration drainBound) {
        public boolean drained() {
            return stillInFlight == 0;
        }

        public String message() {
            return drained() ? "removed instance '" + name + "': every batch drained before it closed"
                    : "removed instance '" + name + "': closed with " + stillInFlight + " batch"
                            + (stillInFlight == 1 ? "" : "es") + " still in flight after " + drainBound.toMillis() + " ms";
        }
    }

    private final L1Arena arena;
    private final MetricRegistry metrics;
    private final Duration batchBound;
    /** Guarded by this. */
    private final List<Instance> instances = new ArrayList<>();

    private Instances(L1Arena arena, MetricRegistry metrics, Duration batchBound) {
        this.arena = arena;
        this.metrics = metrics;
        this.batchBound = batchBound;
    }

    /** Creates every instance over {@code arena}, with {@link #DEFAULT_BATCH_BOUND}. */
    public static Instances create(List<ConfiguredAdapter<?>> configured, L1Arena arena, MetricRegistry metrics) {
        return create(configured, arena, metrics, DEFAULT_BATCH_BOUND);
    }

    /**
     * Creates every instance over {@code arena}; if one fails, those already created are closed.
     *
     * @param batchBound how long a batch may be pending before its future fails with a {@link BatchTimeoutException}
     */
    public static Instances create(List<ConfiguredAdapter<?>> configured, L1Arena arena, MetricRegistry metrics,
                                   Duration batchBound) {
        Instances created = new Instances(arena, metrics, batchBound);
        try {
            configured.forEach(created::add);
            return created;
        } catch (RuntimeException e) {
            created.close();
            throw e;
        }
    }

    /**
     * Creates one more instance over the same arena and adds it to the running ones. Its L1 block
     * size constrains slices allocated from now on, not those handed out before. The instance is
     * created without holding the set, so that a slow creation (a store that connects) does not
     * hold up {@link #select} and {@link #all}.
     *
     * @throws IllegalArgumentException when an instance of that name is running
     */
    public Instance add(ConfiguredAdapter<?> declared) {
        requireNotRunning(declared);
        AdapterContext context = new AdapterContext(declared.name(), Optional.of(arena.desc()), metrics,
                metricPrefix(declared.name()));
        ManagedAdapter adapter = new ManagedAdapter(declared.name(), declared.create(context), declared.classLoader(),
                batchBound);
        Instance instance = new Instance(declared, adapter);
        synchronized (this) {
            try {
                requireNotRunning(declared); // another add of that name may have finished meanwhile
            } catch (IllegalArgumentException e) {
                adapter.close();
                throw e;
            }
            instances.add(instance);
            arena.keepWithinBlocks(adapter.l1BlockSize());
        }
        return instance;
    }

    private synchronized void requireNotRunning(ConfiguredAdapter<?> declared) {
        Optional<Instance> running = find(declared.name());
        if (running.isPresent()) {
            throw new IllegalArgumentException(declared.source() + ": an instance named '" + declared.name()
                    + "' is already running (declared at " + running.get().declared().source() + ")");
        }
    }

    /**
     * Takes the instance out of the running ones and closes it, after its batches in flight have
     * completed or {@code drainBound} has passed, whichever is first. From the start of the
     * removal its new batches fail at once with an IllegalStateException naming it.
     *
     * @throws IllegalArgumentException when no instance of that name is running
     */
    public Removal remove(String name, Duration drainBound) {
        Instance instance;
        synchronized (this) {
            instance = find(name).orElseThrow(() -> new IllegalArgumentException("no instance named '" + name
                    + "' is running (running: " + names() + ")"));
            instances.remove(instance);
        }
        ManagedAdapter adapter = (ManagedAdapter) instance.adapter();
        int stillInFlight = adapter.drain(drainBound);
        adapter.close();
        return new Removal(name, stillInFlight, drainBound);
    }

    private Optional<Instance> find(String name) {
        return instances.stream().filter(i -> i.name().equals(name)).findFirst();
    }

    public static String metricPrefix(String instanceName) {
        return MetricRegistry.name("kvtier", "adapter", instanceName);
    }

    /** The running instances, in the order they were added. */
    public synchronized List<Instance> all() {
        return List.copyOf(instances);
    }

    /** The instance called {@code name}, or the only one when {@code name} is null. */
    public synchronized Instance select(String name) {
        if (name == null) {
            if (instances.size() != 1) {
                throw new IllegalArgumentException("--instance is required when " + instances.size()
                        + " instances are declared (" + names() + ")");
            }
            return instances.get(0);
        }
        return instances.stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("--instance '" + name + "' is not declared (declared: " + names() + ")"));
    }

    private String names() {
        return String.join(", ", instances.stream().map(Instance::name).toList());
    }

    /** Closes every instance, the last added first; each adapter's close completes its batches in flight. */
    @Override
    public synchronized void close() {
        for (int i = instances.size() - 1; i >= 0; i--) {
            instances.get(i).adapter().close();
        }
        instances.clear();
    }
}
