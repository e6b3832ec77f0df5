package io.kvtier.host;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.ConfigValues;
import io.kvtier.hostlib.ConfiguredAdapter;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.L2Adapter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The created adapter instances of one host process, closed together in reverse order. */
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
                        + ConfigValues.readableBytes(capacity) + ", less than " + what + " ("
                        + ConfigValues.readableBytes(needed) + "): " + consequence);
            }
            return Optional.empty();
        }
    }

    private final List<Instance> instances = new ArrayList<>();

    /** Creates every instance over {@code arena}; if one fails, those already created are closed. */
    public static Instances create(List<ConfiguredAdapter<?>> configured, L1Arena arena, MetricRegistry metrics) {
        Instances created = new Instances();
        try {
            for (ConfiguredAdapter<?> adapter : configured) {
                AdapterContext context = new AdapterContext(adapter.name(), Optional.of(arena.desc()), metrics,
                        metricPrefix(adapter.name()));
                L2Adapter instance = adapter.create(context);
                created.instances.add(new Instance(adapter, instance));
                arena.keepWithinBlocks(instance.l1BlockSize());
            }
            return created;
        } catch (RuntimeException e) {
            created.close();
            throw e;
        }
    }

    public static String metricPrefix(String instanceName) {
        return MetricRegistry.name("kvtier", "adapter", instanceName);
    }

    public List<Instance> all() {
        return List.copyOf(instances);
    }

    /** The instance called {@code name}, or the only one when {@code name} is null. */
    Instance select(String name) {
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

    @Override
    public void close() {
        for (int i = instances.size() - 1; i >= 0; i--) {
            instances.get(i).adapter().close();
        }
        instances.clear();
    }
}
