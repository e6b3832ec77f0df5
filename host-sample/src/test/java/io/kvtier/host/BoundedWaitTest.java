package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.Declarations;
import io.kvtier.hostlib.Instances;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.hostlib.L2AdapterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** run's waits on a hung adapter end at the instances' bound, with an error naming the instance, operation and bound. */
class BoundedWaitTest {
    static Instances hungInstance(L1Arena arena, Duration bound) {
        L2AdapterRegistry registry = L2AdapterRegistry.of(new HungAdapterDouble.Provider());
        return Instances.create(Declarations.load(registry, List.of(), List.of("{\"type\":\"hung\",\"name\":\"stuck\"}")),
                arena, new MetricRegistry(), bound);
    }

    @Test
    void aRunOnAHungAdapterFailsAtTheBoundNamingTheInstanceTheOperationAndTheBound() {
        Workload.Options options = new Workload.Options(8, 4096, 4, 2, 1);
        try (L1Arena arena = L1Arena.allocate(Workload.l1BytesNeeded(options), L1Arena.DEFAULT_ALIGNMENT, false);
             Instances instances = hungInstance(arena, Duration.ofMillis(200))) {
            Workload workload = new Workload(arena, options, new MetricRegistry(),
                    new Progress(new PrintWriter(new StringWriter())));
            Instances.Instance stuck = instances.select("stuck");
            assertThatThrownBy(() -> workload.run(stuck.name(), "hung", stuck.adapter()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("store batch failed: instance 'stuck': store of 4 keys did not complete"
                            + " within 0.2 s (the host's bound on a batch); the adapter may be hung");
        }
    }
}
