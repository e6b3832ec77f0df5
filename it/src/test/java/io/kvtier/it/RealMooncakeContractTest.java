package io.kvtier.it;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.ConfiguredAdapter;
import io.kvtier.hostlib.Declarations;
import io.kvtier.hostlib.L2AdapterRegistry;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L2Adapter;
import io.kvtier.testkit.L2AdapterContract;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The L2Adapter contract, held by {@code mooncake_store} against a real master over TCP on
 * loopback. Each adapter is a client that contributes a segment of its own, so the objects a test
 * stores live as long as its adapter.
 */
@ExtendWith(RealMooncakeAvailable.class)
class RealMooncakeContractTest extends L2AdapterContract {
    private static final long SEGMENT_BYTES = 16 << 20;
    @TempDir
    static Path logs;
    private static MooncakeMaster master;

    @BeforeAll
    static void startMaster() throws Exception {
        master = MooncakeMaster.start(logs);
    }

    @AfterAll
    static void stopMaster() throws Exception {
        if (master != null) {
            master.close();
        }
    }

    @Override
    protected L2Adapter createAdapter(L1MemoryDesc l1) {
        L2AdapterRegistry registry = L2AdapterRegistry.load(getClass().getClassLoader());
        ConfiguredAdapter<?> configured = Declarations.configure(registry, Declarations.resolve(Declarations.fromJsonFlags(
                List.of(RealInstances.declaration(master.address(), "contract", SEGMENT_BYTES, "{}"))))).get(0);
        return configured.create(new AdapterContext("contract", Optional.of(l1), new MetricRegistry(),
                "kvtier.adapter.contract"));
    }
}
