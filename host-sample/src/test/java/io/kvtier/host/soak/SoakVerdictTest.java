package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The verdict of one instance from its counts: failed on evidence, inconclusive when a fault left nothing judged. */
class SoakVerdictTest {
    private static final FaultWindows.Window WINDOW = new FaultWindows.Window(100, 200, 5, "errors: transient -900", false);

    private static SoakReport.InstanceReport report(OpStats load, Sealed sealed, AfterFault.Snapshot afterFault) {
        Map<Op, OpStats.Snapshot> ops = new EnumMap<>(Op.class);
        for (Op op : Op.values()) {
            ops.put(op, op == Op.LOAD ? load.snapshot() : new OpStats().snapshot());
        }
        return new SoakReport.InstanceReport("i", "double", ops, List.of(WINDOW), 0, sealed, afterFault);
    }

    @Test
    void aFaultWhoseObjectsWereSomeOfThemJudgedPasses() {
        assertThat(report(new OpStats(), Sealed.NONE, new AfterFault.Snapshot(1, 300)).verdict()).isEqualTo(SoakReport.PASSED);
    }

    @Test
    void aFaultThatHitNoStoredObjectPasses() {
        assertThat(report(new OpStats(), Sealed.NONE, new AfterFault.Snapshot(0, 0)).verdict()).isEqualTo(SoakReport.PASSED);
    }

    @Test
    void aFaultThatHitObjectsNoneOfWhichWasJudgedIsInconclusive() {
        SoakReport.InstanceReport r = report(new OpStats(), Sealed.NONE, new AfterFault.Snapshot(0, 300));
        assertThat(r.verdict()).isEqualTo(SoakReport.INCONCLUSIVE);
        assertThat(r.passed()).isFalse();
    }

    @Test
    void sealedKeysReadAtTheEndAreJudgedToo() {
        Sealed verified = new Sealed(16, 16, 0, 0, 0, 0);
        assertThat(report(new OpStats(), verified, new AfterFault.Snapshot(0, 300)).verdict()).isEqualTo(SoakReport.PASSED);
        Sealed unread = new Sealed(16, 0, 0, 0, 0, 16);
        assertThat(report(new OpStats(), unread, new AfterFault.Snapshot(0, 300)).verdict()).isEqualTo(SoakReport.INCONCLUSIVE);
    }

    @Test
    void aLostKeyFailsWhateverWasJudged() {
        OpStats load = new OpStats();
        load.expectedPresentButMissing(false);
        assertThat(report(load, Sealed.NONE, new AfterFault.Snapshot(0, 300)).verdict()).isEqualTo(SoakReport.FAILED);
    }
}
