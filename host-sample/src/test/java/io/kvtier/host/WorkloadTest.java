package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import io.kvtier.toolkit.BatchOutcome;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class WorkloadTest {
    /** Test double of a store whose master is gone: every key of every batch is an RPC_FAIL error. */
    static final class MasterGoneAdapterDouble implements L2Adapter {
        private static CompletableFuture<BatchResult> failEvery(List<ObjectKey> keys) {
            BatchOutcome outcome = new BatchOutcome(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                outcome.error(i, KeyError.of(ErrorKind.TRANSIENT, -900, "Mooncake batch_put_from failed for key " + keys.get(i)
                        + ": RPC_FAIL (-900)"));
            }
            return CompletableFuture.completedFuture(outcome.build(0));
        }

        @Override
        public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) {
            return failEvery(keys);
        }

        @Override
        public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
            return failEvery(keys);
        }

        @Override
        public void unlock(List<ObjectKey> keys) {}

        @Override
        public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) {
            return failEvery(keys);
        }

        @Override
        public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
            return failEvery(keys);
        }

        @Override
        public AdapterUsage usage() {
            return new AdapterUsage(0, 0, Map.of());
        }

        @Override
        public Map<String, Object> status() {
            return Map.of("is_healthy", false, "type", "master_gone_double");
        }

        @Override
        public void addListener(L2AdapterListener listener) {}

        @Override
        public void close() {}
    }

    @Test
    void repeatedErrorsAreSummedUpByKindAndCodeInOneLine() {
        Workload.Options options = new Workload.Options(8, 4096, 4, 1, 1);
        try (L1Arena arena = L1Arena.allocate(Workload.l1BytesNeeded(options), L1Arena.DEFAULT_ALIGNMENT, true)) {
            Workload workload = new Workload(arena, options, new MetricRegistry(),
                    new Progress(new PrintWriter(new StringWriter())));
            Workload.RunReport report = workload.run("gone", "master_gone_double", new MasterGoneAdapterDouble());
            // 8 stores, 8 + 2 lookups, 8 loads, 8 deletes, each an error; the recheck lookups count as survivors.
            assertThat(report.errorsByKind()).containsExactly(Map.entry("transient -900", 34L));
            assertThat(RunSummary.toText(report)).contains("  FAILED: ")
                    .contains(" errors (transient -900=34)");
            assertThat(RunSummary.toJson(List.of(report))).contains("\"errors_by_kind\":{\"transient -900\":34}");
        }
    }
}
