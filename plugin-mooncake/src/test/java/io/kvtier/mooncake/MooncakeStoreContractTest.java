package io.kvtier.mooncake;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L2Adapter;
import io.kvtier.testkit.L2AdapterContract;
import java.util.Map;
import java.util.Optional;

/**
 * The L2Adapter contract, held by {@code mooncake_store} over the native test double (each adapter
 * on a "cluster" of its own). Against a real master: RealMooncakeContractTest.
 */
class MooncakeStoreContractTest extends L2AdapterContract {
    @Override
    protected L2Adapter createAdapter(L1MemoryDesc l1) {
        return create(l1, TestDouble.body());
    }

    /** Every put and get batch held 100 ms in the double, so that close() meets them running. */
    @Override
    protected L2Adapter createSlowAdapter(L1MemoryDesc l1) {
        return create(l1, TestDouble.body("testdouble_delay_ms_put", 100, "testdouble_delay_ms_get", 100));
    }

    private static L2Adapter create(L1MemoryDesc l1, Map<String, Object> body) {
        return TestDouble.create(TestDouble.provider(), body, TestDouble.context("contract", new MetricRegistry(),
                Optional.of(l1)));
    }
}
