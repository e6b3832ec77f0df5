package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The progress line says when loads came back corrupted, so that a run's log places them in time. */
class SoakProgressTest {
    private final Target target = new Target("mc", "double", 0, new InMemoryAdapterDouble(), 16, 0);
    private final StringWriter out = new StringWriter();
    private final SoakProgress progress = new SoakProgress(java.util.List.of(target), new PrintWriter(out, true),
            System.nanoTime());

    @Test
    void aLineNamesNoCorruptionUntilALoadCameBackCorrupted() {
        progress.print();
        assertThat(out.toString()).doesNotContain("corrupted");
    }

    @Test
    void aLineCountsTheCorruptedLoadsSoFarByKind() {
        target.stats(Op.LOAD).corrupted(ObjectContent.Verdict.FOREIGN);
        target.stats(Op.LOAD).corrupted(ObjectContent.Verdict.STALE);
        target.stats(Op.LOAD).corrupted(ObjectContent.Verdict.FOREIGN);
        progress.print();
        progress.print();
        assertThat(out.toString().lines())
                .hasSize(2)
                .allMatch(line -> line.contains("waiting 0 ms  corrupted 3 (stale 1, foreign 2)"));
    }
}
