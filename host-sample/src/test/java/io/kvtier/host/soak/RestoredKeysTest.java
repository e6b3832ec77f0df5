package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.hostlib.L1Arena;
import io.kvtier.spi.L1Slice;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A new leader restored from a snapshot brings back keys deleted since, and a store of such a key
 * would answer OK and keep the old object, which the next load would miss. So the soak deletes a
 * key deleted before a fault again before it stores it. Operations run one at a time, in the order
 * the test gives.
 */
class RestoredKeysTest {
    private static final long RUN_ID = 5;
    private static final int KEY = 3;
    /** A window closes a nanosecond after its last error, so the store after it comes after its end. */
    private static final Soak.Options OPTIONS = new Soak.Options(TimeUnit.MINUTES.toNanos(1), 1,
            Mix.parse("store=1"), 1024, 8, 0, 1, TimeUnit.HOURS.toNanos(1), 1, 1, null, false);

    private final RestoringAdapterDouble store = new RestoringAdapterDouble();
    private final Target target = new Target("restoring", "double", 0, store, OPTIONS.keys(), OPTIONS.faultSettleNanos());
    private final Operations operations = new Operations(List.of(target), OPTIONS, RUN_ID, System.nanoTime(),
            new PrintWriter(new StringWriter()));
    private L1Arena arena;
    private List<L1Slice> slices;

    @BeforeEach
    void allocate() {
        arena = L1Arena.allocate(L1Arena.DEFAULT_ALIGNMENT, L1Arena.DEFAULT_ALIGNMENT, false);
        slices = List.of(arena.allocate(OPTIONS.chunkSize()));
    }

    @AfterEach
    void free() {
        arena.close();
    }

    @Test
    void aKeyDeletedBeforeAFaultThatBroughtItBackIsDeletedAgainBeforeItIsStored() {
        run(Op.STORE);
        run(Op.DELETE);
        fault(() -> store.restore(List.of(Operations.wireKey(RUN_ID, 0, KEY))));

        run(Op.STORE);
        run(Op.LOAD);

        assertThat(target.stats(Op.DELETE).snapshot().phantom()).as("the restored object, deleted").isEqualTo(1);
        assertThat(target.stats(Op.LOAD).snapshot().verified()).isEqualTo(1);
        assertThat(target.stats(Op.LOAD).snapshot().lost()).isZero();
    }

    @Test
    void aKeyStoredAfterTheWindowAndThenGoneIsStillLost() {
        run(Op.STORE);
        run(Op.DELETE);
        fault(() -> store.restore(List.of()));

        run(Op.STORE);
        store.restore(List.of()); // gone without a fault
        run(Op.LOAD);

        assertThat(target.stats(Op.LOAD).snapshot().lost()).isEqualTo(1);
    }

    @Test
    void whileAWindowIsOpenAKeyDeletedBeforeItIsDeletedAgainAndStored() {
        run(Op.STORE);
        run(Op.DELETE);
        store.failing = true;
        run(Op.LOOKUP);
        store.failing = false;
        assertThat(target.faults.isOpen()).isTrue();

        run(Op.STORE);

        assertThat(target.stats(Op.DELETE).snapshot().missing()).as("deleted again first").isEqualTo(1);
        assertThat(target.stats(Op.STORE).snapshot().ok()).isEqualTo(2);
    }

    private void run(Op op) {
        operations.run(op, target, new int[] {KEY}, slices);
    }

    /** A failed batch opens a window; {@code recovery} runs; the window closes before the next operation. */
    private void fault(Runnable recovery) {
        store.failing = true;
        run(Op.LOOKUP);
        store.failing = false;
        recovery.run();
        target.faults.tick(System.nanoTime());
        assertThat(target.faults.windows()).singleElement().satisfies(w -> assertThat(w.open()).isFalse());
    }
}
