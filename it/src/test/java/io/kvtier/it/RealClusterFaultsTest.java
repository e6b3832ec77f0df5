package io.kvtier.it;

import io.kvtier.it.ClusterScenario.Client;
import io.kvtier.it.ClusterScenario.ClientResult;
import io.kvtier.it.ClusterScenario.Fault;
import io.kvtier.it.ClusterScenario.Plan;
import io.kvtier.it.ClusterScenario.Result;
import io.kvtier.it.ClusterScenario.Second;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15's targets a to e: {@code kvtier soak} on a cluster of three storage nodes while one
 * node, or the master, is partitioned, cut one way, flapped or paused. Each test prints its
 * figures as [cluster] lines, then asserts, all at once, what the targets demand and this
 * machine shows: every wait bounded by the mooncake_store option {@code batch_timeout_ms}, nothing
 * corrupted or lost, every key stored before the fault still there after it (with two replicas),
 * no key with a healthy replica reported missing, the master's fault seen and cleared in time, and
 * throughput back within 10 s of the heal. Throughput during a node's fault is asserted with a
 * margin below the 70% for a loaded machine (docs/cluster-harness.md has the latest figures).
 */
@ExtendWith(ClusterAvailable.class)
class RealClusterFaultsTest {
    private static final long BATCH_TIMEOUT_MS = 2000;
    /** A future completes within the bound; the soak sees it a little later (its own thread, a JIT pause). */
    private static final long SLACK_MS = 1000;
    private static final Duration BEFORE = Duration.ofSeconds(12);
    private static final Duration DURING = Duration.ofSeconds(20);
    private static final Duration AFTER = Duration.ofSeconds(13);
    /**
     * The master's {@code --client_ttl} for its partition: Mooncake's master drops a client whose
     * pings it has not heard for that long, and every object on its segment with it. At the default
     * 10 s, a 20 s partition expired all three nodes and lost every object (64 of 64 sealed keys
     * missing); at 30 s none expired and all 64 loaded whole (docs/faults.md, `--client_ttl`).
     */
    private static final int CLIENT_TTL_FOR_MASTER_PARTITION = 30;
    /**
     * How long health may take to follow the master, seconds: a probe every second, late after two,
     * so about 3 s here; one CI run took 6.0 s on a loaded machine. One-sided and generous.
     */
    private static final double HEALTH_FOLLOWS_WITHIN = 15.0;
    /**
     * Seconds after a pause from which batches fail fast: by then the node is suspect. About 3 s
     * here (suspect_after_ms 1000, its bound three times that); generous, as a loaded machine
     * marks it later.
     */
    private static final double SUSPECT_BY = 10.0;

    /** Kept when a test fails, for its keys to be traced in the master's and the nodes' logs. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path logs;

    private Result run(String name, Fault fault, int replicas, Duration during) throws Exception {
        return run(Plan.of(name, fault, replicas, BATCH_TIMEOUT_MS, Client.KVTIER).withPhases(BEFORE, during, AFTER));
    }

    private Result run(Plan plan) throws Exception {
        Result result = ClusterScenario.run(plan, logs);
        result.lines().forEach(System.out::println);
        return result;
    }

    /** What every fault must keep: bounded waits, nothing corrupted or lost, an end when told. */
    private static void bounded(SoftAssertions soft, ClientResult r) {
        soft.assertThat(r.endedHow()).as("the soak ends when told").doesNotContain("NOT");
        soft.assertThat(r.longestWaitMs()).as("the longest batch wait, ms (batch_timeout_ms %d)", BATCH_TIMEOUT_MS)
                .isLessThanOrEqualTo(BATCH_TIMEOUT_MS + SLACK_MS);
        soft.assertThat(r.corrupted()).as("corrupted (a late write into a reused L1 slice shows here)").isZero();
        soft.assertThat(r.lost()).as("lost").isZero();
    }

    /** Every key the soak sealed just before the fault (stored then, untouched since) loads whole at its end. */
    private static void keptWhatWasStored(SoftAssertions soft, ClientResult r) {
        soft.assertThat(r.sealed().keys()).as("keys sealed before the fault").isPositive();
        soft.assertThat(r.sealed().verified()).as("sealed keys loaded whole at the end (missing %d, corrupted %d)",
                r.sealed().missing(), r.sealed().corrupted()).isEqualTo(r.sealed().keys());
    }

    /** Throughput comes back after the heal. */
    private static void comesBackAfterTheHeal(SoftAssertions soft, ClientResult r) {
        soft.assertThat(r.before()).as("OK MB/s before the fault").isPositive();
        // A soft isNotNull() does not stop the chain, and a null would then fail as a NullPointerException.
        Double seconds = r.recoverySeconds();
        soft.assertThat(seconds).as("seconds after the heal until 80%% of %.0f MB/s (null: never, after %.0f)",
                r.before(), r.after()).isNotNull();
        if (seconds != null) {
            soft.assertThat(seconds).as("seconds after the heal until 80%% of %.0f MB/s", r.before())
                    .isLessThanOrEqualTo(10.0);
        }
    }

    @Test
    void a_aPartitionedNodeWithTwoReplicasFailsOverWithinTheCallAndBoundsEveryWait() throws Exception {
        ClientResult r = run("a: node partitioned, replica_num 2", Fault.PARTITION_NODE, 2, DURING).client(Client.KVTIER);
        SoftAssertions soft = new SoftAssertions();
        bounded(soft, r);
        keptWhatWasStored(soft, r);
        soft.assertThat(r.missingAfterFault()).as("keys reported missing: every key has a healthy replica").isZero();
        // The target is 70%; measured 75-119% in three runs (40-45% before connects to the
        // cut node failed fast). Half keeps a margin for a loaded machine and still tells them apart.
        soft.assertThat(r.during()).as("OK MB/s from 5 s after the cut, against %.0f before", r.before())
                .isGreaterThanOrEqualTo(0.5 * r.before());
        comesBackAfterTheHeal(soft, r);
        soft.assertAll();
    }

    @Test
    void b_aPartitionedNodeWithOneReplicaBoundsEveryWaitAndTheOtherKeysKeepWorking() throws Exception {
        ClientResult r = run("b: node partitioned, replica_num 1", Fault.PARTITION_NODE, 1, DURING).client(Client.KVTIER);
        SoftAssertions soft = new SoftAssertions();
        bounded(soft, r);
        // A third of the keys live on the cut node and nearly every batch holds one; the others
        // must keep being served (measured here: 43% of the throughput before).
        soft.assertThat(r.during()).as("OK MB/s from 5 s after the cut, against %.0f before", r.before())
                .isGreaterThanOrEqualTo(0.25 * r.before());
        comesBackAfterTheHeal(soft, r);
        soft.assertAll();
    }

    @Test
    void c_aPartitionedMasterMakesTheInstanceUnhealthyBatchesFailFastAndNothingIsLost() throws Exception {
        Result result = run(Plan.of("c: master partitioned, replica_num 2", Fault.PARTITION_MASTER, 2, BATCH_TIMEOUT_MS,
                Client.KVTIER).withPhases(BEFORE, DURING, AFTER).withClientTtl(CLIENT_TTL_FOR_MASTER_PARTITION));
        ClientResult r = result.client(Client.KVTIER);
        SoftAssertions soft = new SoftAssertions();
        bounded(soft, r);
        // The soak's own miss count cannot tell here: its stores and deletes, failing fast for 20 s,
        // leave hardly a key whose state it knows. The sealed keys are untouched since the cut.
        keptWhatWasStored(soft, r);
        Second unhealthy = r.seconds().stream().filter(s -> s.at() >= result.faultAt() && s.unhealthy()).findFirst()
                .orElse(null);
        soft.assertThat(unhealthy).as("an UNHEALTHY progress line after the cut").isNotNull();
        if (unhealthy != null) {
            soft.assertThat(unhealthy.at() - result.faultAt()).as("seconds from the cut to unhealthy")
                    .isLessThanOrEqualTo(HEALTH_FOLLOWS_WITHIN);
            // Batches in flight when it turned unhealthy may wait out the bound (asserted above); later ones fail fast.
            double fastFrom = unhealthy.at() + BATCH_TIMEOUT_MS / 1000.0 + 1;
            List<Second> whileUnhealthy = r.seconds().stream()
                    .filter(s -> s.at() > fastFrom && s.at() < result.healAt()).toList();
            soft.assertThat(whileUnhealthy).as("batches sent while unhealthy fail fast (wait max <= 1 s)")
                    .allMatch(s -> s.waitMaxMs() <= 1000 && s.waitingMs() <= 1000);
        }
        Second healthy = r.seconds().stream().filter(s -> s.at() >= result.healAt() && !s.unhealthy()).findFirst()
                .orElse(null);
        soft.assertThat(healthy).as("a healthy progress line after the heal").isNotNull();
        if (healthy != null) {
            soft.assertThat(healthy.at() - result.healAt()).as("seconds from the heal to healthy")
                    .isLessThanOrEqualTo(HEALTH_FOLLOWS_WITHIN);
        }
        soft.assertAll();
    }

    @Test
    void d_aOneWayPartitionBoundsEveryWaitAndCorruptsNothing() throws Exception {
        ClientResult r = run("d: node cut one way (in), replica_num 2", Fault.ONEWAY_NODE_IN, 2, DURING).client(Client.KVTIER);
        SoftAssertions soft = new SoftAssertions();
        bounded(soft, r);
        keptWhatWasStored(soft, r);
        soft.assertAll();
    }

    @Test
    void d_aLinkFlappingEvery5sBoundsEveryWaitAndCorruptsNothing() throws Exception {
        ClientResult r = run("d: node flapping every 5 s for 60 s, replica_num 2", Fault.FLAP_NODE, 2,
                Duration.ofSeconds(60)).client(Client.KVTIER);
        SoftAssertions soft = new SoftAssertions();
        bounded(soft, r);
        keptWhatWasStored(soft, r);
        soft.assertAll();
    }

    @Test
    void e_aSigstoppedNodeBehavesLikeAPartitionedOne() throws Exception {
        Result result = run("e: node SIGSTOPped, replica_num 2", Fault.PAUSE_NODE, 2, DURING);
        ClientResult r = result.client(Client.KVTIER);
        SoftAssertions soft = new SoftAssertions();
        bounded(soft, r);
        keptWhatWasStored(soft, r);
        soft.assertThat(r.missingAfterFault()).as("keys reported missing: every key has a running replica").isZero();
        // Once the node is suspect, a store the master still places there fails at once instead of
        // waiting out the deadline (its kernel accepts the connect; only the transfer stalls). Not
        // every one: two CI runs had one batch wait out its deadline 5 and 10 s into the pause,
        // likely after a probe that found none of its remembered keys there cleared the node, until
        // a read marked it again (not traced). Without failing fast, nearly every second would
        // hold a batch that waited the whole deadline: the median second must not.
        double[] waits = r.seconds().stream()
                .filter(s -> s.at() >= result.faultAt() + SUSPECT_BY && s.at() < result.healAt())
                .mapToDouble(s -> Math.max(s.waitMaxMs(), s.waitingMs())).sorted().toArray();
        soft.assertThat(waits).as("seconds from %.0f s after the pause to the heal", SUSPECT_BY).isNotEmpty();
        if (waits.length > 0) {
            soft.assertThat(waits[waits.length / 2])
                    .as("the median second's longest batch wait from %.0f s after the pause to the heal, ms (all: %s)",
                            SUSPECT_BY, java.util.Arrays.toString(waits))
                    .isLessThan(BATCH_TIMEOUT_MS);
        }
        comesBackAfterTheHeal(soft, r);
        soft.assertAll();
    }
}
