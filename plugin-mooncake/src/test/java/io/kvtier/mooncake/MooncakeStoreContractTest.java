package io.kvtier.mooncake;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L2Adapter;
import io.kvtier.testkit.L2AdapterContract;
import java.util.Optional;

/**
 * The L2Adapter contract, held by {@code mooncake_store} over the native test double (each adapter
 * on a "cluster" of its own). Against a real master: it's RealMooncakeContractTest.
 */
class MooncakeStoreContractTest extends L2AdapterContract {
    @Override
    protected L2Adapter createAdapter(L1MemoryDesc l1) {
        return TestDouble.create(TestDouble.provider(), TestDouble.body(),
                TestDouble.context("contract", new MetricRegistry(), Optional.of(l1)));
    }
}
