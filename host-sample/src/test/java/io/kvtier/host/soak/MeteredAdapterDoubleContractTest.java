package io.kvtier.host.soak;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L2Adapter;
import io.kvtier.testkit.L2AdapterContract;

/** The soak's metered double, honest too, keeps the whole L2Adapter contract. */
class MeteredAdapterDoubleContractTest extends L2AdapterContract {
    @Override
    protected L2Adapter createAdapter(L1MemoryDesc l1) {
        return new MeteredAdapterDouble(new MetricRegistry(), "kvtier.adapter.metered");
    }
}
