package io.kvtier.mooncake;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * How long creating and closing one instance over the test double takes: the first creation (cold),
 * then the median of 20 runs each. Prints, asserts nothing; run it on demand:
 * {@code mvn -B -o test -pl plugin-mooncake -am -Dtest=CreateCloseTimingTest -Dsurefire.failIfNoSpecifiedTests=false -Dkvtier.timing=true}
 */
@EnabledIfSystemProperty(named = "kvtier.timing", matches = "true")
class CreateCloseTimingTest {
    private static final int RUNS = 20;

    @Test
    void printsMedians() {
        MooncakeStoreProvider provider = TestDouble.provider();
        long coldStart = System.nanoTime();
        TestDouble.create(provider, TestDouble.body(), TestDouble.context("timing")).close();
        long cold = System.nanoTime() - coldStart;
        long[] create = new long[RUNS];
        long[] close = new long[RUNS];
        for (int i = 0; i < RUNS; i++) {
            long start = System.nanoTime();
            MooncakeStoreAdapter adapter = TestDouble.create(provider, TestDouble.body(), TestDouble.context("timing"));
            long created = System.nanoTime();
            adapter.close();
            create[i] = created - start;
            close[i] = System.nanoTime() - created;
        }
        System.out.printf("instance timing: first create+close %.2f ms; median of %d: create %.3f ms, close %.3f ms%n",
                cold / 1e6, RUNS, median(create) / 1e6, median(close) / 1e6);
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return (sorted[RUNS / 2 - 1] + sorted[RUNS / 2]) / 2.0;
    }
}
