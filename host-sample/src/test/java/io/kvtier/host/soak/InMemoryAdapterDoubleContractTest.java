package io.kvtier.host.soak;

import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L2Adapter;
import io.kvtier.testkit.L2AdapterContract;

/** The soak's honest double keeps the whole L2Adapter contract. */
class InMemoryAdapterDoubleContractTest extends L2AdapterContract {
    @Override
    protected L2Adapter createAdapter(L1MemoryDesc l1) {
        return new InMemoryAdapterDouble();
    }
}
