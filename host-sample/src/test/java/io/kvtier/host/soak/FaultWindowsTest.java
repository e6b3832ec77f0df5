package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FaultWindowsTest {
    private static final long SETTLE = 10;

    @Test
    void aWindowOpensOnAnErrorAndClosesOnceErrorsHaveSettled() {
        FaultWindows faults = new FaultWindows(SETTLE);
        assertThat(faults.excuses(0)).isFalse();
        faults.errors(100, 3, "RPC_FAIL (-900)");
        faults.errors(105, 2, "RPC_FAIL (-900)");
        faults.tick(114);
        assertThat(faults.isOpen()).isTrue();
        faults.tick(115);
        assertThat(faults.windows()).containsExactly(new FaultWindows.Window(100, 115, 5, "errors: RPC_FAIL (-900)", false));
    }

    @Test
    void onlyObjectsAcknowledgedBeforeAWindowClosedAreExcused() {
        FaultWindows faults = new FaultWindows(SETTLE);
        faults.errors(100, 1, "x");
        assertThat(faults.excuses(50)).isTrue();
        assertThat(faults.excuses(102)).as("stored while the window is open").isTrue();
        faults.tick(200);
        assertThat(faults.excuses(50)).isTrue();
        assertThat(faults.excuses(109)).isTrue();
        assertThat(faults.excuses(111)).as("stored after the window closed").isFalse();
    }

    @Test
    void aFaultMayHaveHitOnlyObjectsStoredBeforeTheLatestWindowOpened() {
        FaultWindows faults = new FaultWindows(SETTLE);
        assertThat(faults.hitBy(50)).as("no fault yet").isFalse();
        faults.errors(100, 1, "x");
        assertThat(faults.hitBy(50)).isTrue();
        assertThat(faults.hitBy(105)).as("stored once the fault was under way").isFalse();
        faults.tick(200);
        assertThat(faults.hitBy(50)).as("after the window closed").isTrue();
        faults.errors(300, 1, "y");
        assertThat(faults.hitBy(150)).as("stored between two faults, hit by the second").isTrue();
    }

    @Test
    void onlyABatchAskedOnceTheFaultBeganJudgesAnObjectItMayHaveHit() {
        FaultWindows faults = new FaultWindows(SETTLE);
        assertThat(faults.judges(50, 60)).as("no fault yet").isFalse();
        faults.errors(100, 1, "x");
        assertThat(faults.judges(50, 99)).as("asked before the fault: maybe answered before it").isFalse();
        assertThat(faults.judges(50, 100)).isTrue();
        assertThat(faults.judges(105, 106)).as("stored once the fault was under way").isFalse();
        faults.tick(200);
        assertThat(faults.judges(50, 150)).as("asked after the window closed").isTrue();
        assertThat(faults.judges(50, 99)).isFalse();
    }

    @Test
    void anErrorAfterTheSettleTimeOpensANewWindowEvenBeforeATick() {
        FaultWindows faults = new FaultWindows(SETTLE);
        faults.errors(100, 1, "a");
        faults.errors(150, 1, "b");
        assertThat(faults.windows()).containsExactly(new FaultWindows.Window(100, 110, 1, "errors: a", false),
                new FaultWindows.Window(150, -1, 1, "errors: b", false));
    }

    @Test
    void anUnhealthyInstanceKeepsTheWindowOpen() {
        FaultWindows faults = new FaultWindows(SETTLE);
        for (long poll = 100; poll <= 130; poll += 5) {
            faults.unhealthy(poll);
            faults.tick(poll);
        }
        faults.tick(139);
        assertThat(faults.isOpen()).isTrue();
        faults.tick(140);
        assertThat(faults.windows()).containsExactly(new FaultWindows.Window(100, 140, 0, "unhealthy", false));
    }

    @Test
    void aMarkedWindowStaysOpenUntilMarkedRecovered() {
        FaultWindows faults = new FaultWindows(SETTLE);
        faults.markFault(100);
        faults.errors(101, 4, "x");
        faults.tick(1000);
        assertThat(faults.isOpen()).isTrue();
        faults.markRecovered(1001);
        assertThat(faults.windows()).containsExactly(new FaultWindows.Window(100, 1001, 4, "marked fault", true));
        faults.markRecovered(2000);
        assertThat(faults.windows()).hasSize(1);
    }
}
