package io.kvtier.memory;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L2Adapter;
import io.kvtier.testkit.L2AdapterContract;
import java.util.Optional;

/** The L2Adapter contract, held by the {@code memory} adapter. */
class MemoryAdapterContractTest extends L2AdapterContract {
    /** Room for every object a contract test holds, so that nothing is evicted. */
    private static final long CAPACITY = 4L * L2AdapterContract.MAX_OBJECTS_HELD * 4096;

    @Override
    protected L2Adapter createAdapter(L1MemoryDesc l1) {
        return new MemoryAdapterProvider().create(new MemoryAdapterProvider.Config(CAPACITY),
                new AdapterContext("contract", Optional.of(l1), new MetricRegistry(), "kvtier.adapter.contract"));
    }
}
