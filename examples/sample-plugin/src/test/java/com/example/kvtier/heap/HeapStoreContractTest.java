package com.example.kvtier.heap;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L2Adapter;
import io.kvtier.testkit.L2AdapterContract;
import java.util.Optional;

/** kvtier's contract test kit, run against sample_heap: every L2Adapter promise is a test here. */
class HeapStoreContractTest extends L2AdapterContract {
    @Override
    protected L2Adapter createAdapter(L1MemoryDesc l1) {
        // Room for every object a contract test holds at once.
        HeapStoreProvider.Config config = new HeapStoreProvider.Config(L2AdapterContract.MAX_OBJECTS_HELD);
        return new HeapStoreProvider().create(config,
                new AdapterContext("sample", Optional.of(l1), new MetricRegistry(), "kvtier.adapter.sample"));
    }
}
