package io.kvtier.host.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReplayLruOracleTest {
    private static int[] hits(long capacity, int[]... requests) {
        List<Trace.Request> trace = IntStream.range(0, requests.length)
                .mapToObj(i -> new Trace.Request(i, requests[i])).toList();
        return LruOracle.hits(trace, capacity);
    }

    @Test
    void aRequestHitsTheLeadingBlocksCachedAndNoBlockAfterTheFirstMiss() {
        assertThat(hits(0, new int[] {1, 2, 3}, new int[] {1, 2, 3, 4}, new int[] {1, 9, 3})).containsExactly(0, 3, 1);
    }

    @Test
    void theLeastRecentlyUsedBlockIsEvictedNotTheFirstAdmitted() {
        // After [1, 2] and [1], block 2 is the least recently used: [3] evicts it, and 1 stays.
        assertThat(hits(2, new int[] {1, 2}, new int[] {1}, new int[] {3}, new int[] {1, 2})).containsExactly(0, 1, 0, 1);
        // Without the use of 1 in between, [3] evicts 1, and [1, 2] finds nothing.
        assertThat(hits(2, new int[] {1, 2}, new int[] {3}, new int[] {1, 2})).containsExactly(0, 0, 0);
        assertThat(hits(3, new int[] {1, 2}, new int[] {3}, new int[] {1, 2})).containsExactly(0, 0, 2);
    }

    @Test
    void aRequestLongerThanTheCapacityKeepsOnlyItsLastBlocks() {
        assertThat(hits(2, new int[] {1, 2, 3}, new int[] {1, 2, 3}, new int[] {2, 3})).containsExactly(0, 0, 2);
    }

    @Test
    void theTestTracesFiguresMatchAnIndependentCount() {
        List<Trace.Request> trace = Trace.read(ReplayTraces.CONVERSATION_500, Integer.MAX_VALUE);
        assertThat(trace.stream().mapToInt(r -> r.blocks().length).sum()).isEqualTo(14_162);
        // Counted with a few lines of Python (collections.OrderedDict) from the same 500 lines.
        assertThat(IntStream.of(LruOracle.hits(trace, 0)).sum()).isEqualTo(2_283);
        assertThat(IntStream.of(LruOracle.hits(trace, 2_000)).sum()).isEqualTo(575);
        assertThat(IntStream.of(LruOracle.hits(trace, 500)).sum()).isEqualTo(499);
    }

    @Test
    void theFullTraceGivesTheFiguresOfItsReadme() {
        List<Trace.Request> trace = Trace.read(ReplayTraces.CONVERSATION_FULL, Integer.MAX_VALUE);
        long blocks = trace.stream().mapToInt(r -> r.blocks().length).sum();
        assertThat(trace).hasSize(12_031);
        assertThat(blocks).isEqualTo(288_500);
        assertThat(percent(LruOracle.hits(trace, 0), blocks)).isEqualTo(36.6);
        assertThat(percent(LruOracle.hits(trace, 6_000), blocks)).isEqualTo(13.9);
        assertThat(percent(LruOracle.hits(trace, 20_000), blocks)).isEqualTo(28.7);
        assertThat(percent(LruOracle.hits(trace, 100_000), blocks)).isEqualTo(36.4);
    }

    /** To one decimal, as the README gives them. */
    private static double percent(int[] hits, long blocks) {
        return Math.round(1000.0 * IntStream.of(hits).sum() / blocks) / 10.0;
    }
}
