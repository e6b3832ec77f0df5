package io.kvtier.mooncake.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.mooncake.binding.MooncakeClient.Loaded;
import io.kvtier.mooncake.binding.MooncakeClient.NodeReads;
import io.kvtier.mooncake.binding.MooncakeClient.ProbeAnswer;
import io.kvtier.mooncake.health.StorageNodes;
import io.kvtier.mooncake.health.Timings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link StorageNodes}, on a connector stand-in and a clock of the test's: no thread,
 * no wait. Nodes 0 and 1 are "a" and "b"; suspect_after_ms is 1000.
 */
class StorageNodesTest {
    private static final long SUSPECT_AFTER_MS = 1000;
    private static final long TRANSFER_FAIL = MooncakeCodes.TRANSFER_FAIL;

    /** Stands in for the native client: reads as the test sets them, probe answers per node and key. */
    private final class FakeConnector implements StorageNodes.Connector {
        NodeReads reads = new NodeReads(new int[0], new long[0], new long[0]);
        final Map<String, ProbeAnswer> answers = new HashMap<>();
        final List<String> calls = new ArrayList<>();

        @Override
        public NodeReads reads() {
            return reads;
        }

        @Override
        public String name(int id) {
            return id == 0 ? "a" : "b";
        }

        @Override
        public void avoid(int id, boolean avoid) {
            calls.add((avoid ? "avoid " : "allow ") + name(id));
        }

        @Override
        public ProbeAnswer probe(int id, String wireKey) {
            calls.add("probe " + name(id) + " " + wireKey);
            return answers.getOrDefault(name(id) + " " + wireKey, ProbeAnswer.UNANSWERED);
        }
    }

    private final FakeConnector connector = new FakeConnector();
    private long nanos;
    private final List<String> heard = new ArrayList<>();
    private final StorageNodes nodes = new StorageNodes(connector, SUSPECT_AFTER_MS, Timings.DEFAULTS, () -> nanos,
            (node, state, why) -> heard.add(node + " " + state + ": " + why));

    private void advanceMillis(long ms) {
        nanos += TimeUnit.MILLISECONDS.toNanos(ms);
    }

    /** One key per entry, read from {@code read} (-1: none), with an avoided replica on {@code avoided} (-1: none), by a load started now. */
    private void loaded(String key, int read, int avoided, long result) {
        loaded(key, read, avoided, result, nanos);
    }

    private void loaded(String key, int read, int avoided, long result, long startedNanos) {
        nodes.loaded(List.of(key), new Loaded(new long[] {result}, new int[] {read}, new int[] {avoided}), startedNanos);
    }

    @Test
    void aReadIsStalledPastSuspectAfterWhenNothingWasHeardForAsLongOrPastThreeTimesWhateverWasHeard() {
        assertThat(StorageNodes.stalled(1000, -1, SUSPECT_AFTER_MS)).as("at suspect_after_ms itself").isFalse();
        assertThat(StorageNodes.stalled(1001, -1, SUSPECT_AFTER_MS)).as("never heard").isTrue();
        assertThat(StorageNodes.stalled(1001, 1001, SUSPECT_AFTER_MS)).as("quiet as long").isTrue();
        assertThat(StorageNodes.stalled(1001, 1000, SUSPECT_AFTER_MS)).as("heard within suspect_after_ms").isFalse();
        assertThat(StorageNodes.stalled(3000, 0, SUSPECT_AFTER_MS)).as("a busy node at 3x").isFalse();
        assertThat(StorageNodes.stalled(3001, 0, SUSPECT_AFTER_MS)).as("past 3x, whatever was heard").isTrue();
    }

    @Test
    void aFailedTransferMakesItsNodeSuspectAndAvoidedOnceAndTheListenerHearsIt() {
        loaded("k1", 0, -1, 4096);
        assertThat(nodes.states()).containsEntry("a", StorageNodes.State.UP);
        loaded("k2", 0, -1, TRANSFER_FAIL);
        loaded("k3", 0, -1, TRANSFER_FAIL);
        assertThat(nodes.suspects()).containsExactly("a");
        assertThat(connector.calls).containsExactly("avoid a");
        assertThat(heard).containsExactly("a SUSPECT: a read from it failed: TRANSFER_FAIL");
    }

    @Test
    void aFailedTransferOfALoadThatStartedBeforeItsNodeWasClearedLeavesTheNodeUp() {
        long stuckSince = nanos;
        loaded("k1", 0, -1, TRANSFER_FAIL);
        connector.answers.put("a k1", ProbeAnswer.ANSWERED);
        advanceMillis(1000);
        nodes.probe();
        assertThat(nodes.suspects()).isEmpty();

        advanceMillis(20_000);
        loaded("k2", 0, -1, TRANSFER_FAIL, stuckSince);
        assertThat(nodes.suspects()).as("a read stuck since before a was cleared, failing at Mooncake's timeout").isEmpty();
        loaded("k3", 0, -1, TRANSFER_FAIL, nanos - 1);
        assertThat(nodes.suspects()).as("a read started after the clearing").containsExactly("a");
    }

    @Test
    void otherFailuresLeaveANodeUp() {
        loaded("k1", 0, -1, MooncakeCodes.OBJECT_NOT_FOUND);
        loaded("k2", 0, -1, -801); // CHECKSUM_MISMATCH: the transfer completed
        assertThat(nodes.suspects()).isEmpty();
        assertThat(connector.calls).isEmpty();
    }

    @Test
    void aSweepMarksTheNodesWhoseRunningReadsStalledAndNoOther() {
        loaded("k1", 0, -1, 4096);
        loaded("k2", 1, -1, 4096);
        connector.reads = new NodeReads(new int[] {1, 1}, new long[] {1500, 1500}, new long[] {1500, 20});
        nodes.sweep();
        assertThat(nodes.suspects()).containsExactly("a");
        assertThat(heard).singleElement().asString()
                .isEqualTo("a SUSPECT: a read from it has run for 1500 ms, nothing heard from it for 1500 ms (suspect_after_ms = 1000)");
    }

    @Test
    void aSweepAfterThisProcessPausedJudgesNothingAndTheNextOneJudges() {
        loaded("k1", 0, -1, 4096);
        loaded("k2", 1, -1, 4096);
        advanceMillis(SUSPECT_AFTER_MS + 100); // no sweep ran: the process did not
        connector.reads = new NodeReads(new int[] {1, 1}, new long[] {1124, 1124}, new long[] {1121, 1121});
        nodes.sweep();
        assertThat(nodes.suspects()).as("every read's quiet time includes the pause").isEmpty();

        advanceMillis(250);
        connector.reads = new NodeReads(new int[] {1, 1}, new long[] {1374, 1374}, new long[] {1371, 3});
        nodes.sweep();
        assertThat(nodes.suspects()).as("b was heard once the process ran again; a was not").containsExactly("a");
    }

    @Test
    void aSweepIgnoresANodeWithNoReadRunning() {
        connector.reads = new NodeReads(new int[] {0}, new long[] {0}, new long[] {-1});
        nodes.sweep();
        assertThat(nodes.states()).isEmpty();
    }

    @Test
    void aProbeThatReadsTheLatestKeyStillThereClearsTheNode() {
        loaded("k1", 0, -1, 4096);
        loaded("k2", 0, -1, TRANSFER_FAIL);
        connector.answers.put("a k2", ProbeAnswer.NOT_THERE);
        connector.answers.put("a k1", ProbeAnswer.ANSWERED);
        nodes.probe();
        assertThat(connector.calls).containsExactly("avoid a", "probe a k2", "probe a k1", "allow a");
        assertThat(nodes.states()).containsEntry("a", StorageNodes.State.UP);
        assertThat(heard).last().isEqualTo("a UP: a probe read from it succeeded");
    }

    @Test
    void aProbeLeftUnansweredKeepsTheNodeSuspectAndTriesNoOlderKey() {
        loaded("k1", 0, -1, 4096);
        loaded("k2", 0, -1, TRANSFER_FAIL);
        nodes.probe();
        assertThat(connector.calls).containsExactly("avoid a", "probe a k2");
        assertThat(nodes.suspects()).containsExactly("a");
    }

    @Test
    void aKeySkippedOnAnAvoidedNodeIsOneItsProbeReads() {
        loaded("k1", 0, -1, TRANSFER_FAIL);
        loaded("k2", 1, 0, 4096); // read from b around avoided a
        connector.answers.put("a k2", ProbeAnswer.ANSWERED);
        nodes.probe();
        assertThat(connector.calls).containsExactly("avoid a", "probe a k2", "allow a");
    }

    @Test
    void aNodeWhoseKeysAreAllGoneIsClearedOnlyOnceNoReadMetItForMetRecently() {
        loaded("k1", 0, -1, TRANSFER_FAIL);
        connector.answers.put("a k1", ProbeAnswer.NOT_THERE);
        long metRecentlyMs = Timings.DEFAULTS.metRecently().toMillis();
        advanceMillis(metRecentlyMs - 1);
        nodes.probe();
        assertThat(nodes.suspects()).as("a read met it just under metRecently ago").containsExactly("a");
        loaded("k1", -1, 0, MooncakeCodes.ON_SUSPECT_NODES); // a read meets it again, skipping it
        advanceMillis(metRecentlyMs - 1);
        nodes.probe();
        assertThat(nodes.suspects()).containsExactly("a");
        advanceMillis(1);
        nodes.probe();
        assertThat(nodes.suspects()).isEmpty();
        assertThat(heard).last().isEqualTo("a UP: the master places none of its keys there any more");
    }

    @Test
    void aNodeRemembersItsLatestSixteenKeysEachOnce() {
        for (int k = 0; k < 20; k++) {
            loaded("k" + k, 0, -1, 4096);
        }
        loaded("k19", 0, -1, 4096);
        loaded("k18", 0, -1, TRANSFER_FAIL);
        for (int k = 0; k < 20; k++) {
            connector.answers.put("a k" + k, ProbeAnswer.NOT_THERE);
        }
        nodes.probe();
        List<String> probed = connector.calls.stream().filter(c -> c.startsWith("probe")).toList();
        assertThat(probed).hasSize(StorageNodes.PROBE_KEYS).startsWith("probe a k18", "probe a k19", "probe a k17")
                .endsWith("probe a k4");
    }
}
