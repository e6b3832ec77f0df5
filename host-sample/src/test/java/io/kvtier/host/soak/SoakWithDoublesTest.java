package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.host.FailurePacer;
import io.kvtier.host.HungAdapterDouble;
import io.kvtier.host.Main;
import io.kvtier.hostlib.Declarations;
import io.kvtier.hostlib.Instances;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.hostlib.L2AdapterRegistry;
import io.kvtier.memory.MemoryAdapterProvider;
import io.kvtier.spi.Health;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The soak against test doubles that misbehave in known ways: it must count exactly what they did. */
class SoakWithDoublesTest {
    private static final long SEED = 7;
    private static final long RUN_ID = 99;
    private static final Duration LIMIT = Duration.ofSeconds(60);

    /** 512 keys: a failure touches few of them, so most keys are still known present when the double comes back. */
    private static Soak.Options options(Integer metricsPort, boolean evicting) {
        return new Soak.Options(LIMIT.toNanos(), 2, Mix.parse("store=40,lookup=20,load=35,delete=5"), 1024, 512, 0, 4,
                TimeUnit.HOURS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(300), SEED, metricsPort, evicting);
    }

    /** A soak of one instance, named {@code name}, stopped as soon as {@code done} holds for it. */
    private static SoakReport soak(String name, L2Adapter adapter, Predicate<Target> done) throws Exception {
        return soak(name, adapter, new MetricRegistry(), null, (soak, target) -> done.test(target), new StringWriter());
    }

    private static SoakReport soak(String name, L2Adapter adapter, MetricRegistry metrics, Integer metricsPort,
                                   Condition done) throws Exception {
        return soak(name, adapter, metrics, metricsPort, done, new StringWriter());
    }

    private static SoakReport soak(String name, L2Adapter adapter, MetricRegistry metrics, Integer metricsPort,
                                   Condition done, StringWriter err) throws Exception {
        return soak(options(metricsPort, false), name, adapter, metrics, done, err);
    }

    /** A soak with {@code --evicting}. */
    private static SoakReport soakEvicting(String name, L2Adapter adapter, Condition done, StringWriter err) throws Exception {
        return soak(options(null, true), name, adapter, new MetricRegistry(), done, err);
    }

    private interface Condition0 {
        boolean holds() throws Exception;
    }

    private interface Condition {
        boolean holds(Soak soak, Target target) throws Exception;
    }

    /** As above, with what the soak prints to stderr written to {@code err}. */
    private static SoakReport soak(Soak.Options options, String name, L2Adapter adapter, MetricRegistry metrics,
                                   Condition done, StringWriter err) throws Exception {
        try (L1Arena arena = L1Arena.allocate(Soak.l1BytesNeeded(options), L1Arena.DEFAULT_ALIGNMENT, false)) {
            return soak(options, arena, name, adapter, metrics, done, err);
        }
    }

    /** As above, over an arena the caller allocated, and may have created the instance over. */
    private static SoakReport soak(Soak.Options options, L1Arena arena, String name, L2Adapter adapter,
                                   MetricRegistry metrics, Condition done, StringWriter err) throws Exception {
        Target target = new Target(name, "double", 0, adapter, options.keys(), options.faultSettleNanos());
        Soak soak = new Soak(options, List.of(target), arena, metrics, new PrintWriter(err), RUN_ID);
        CompletableFuture<SoakReport> running = CompletableFuture.supplyAsync(() -> {
            try {
                return soak.run();
            } catch (InterruptedException e) {
                throw new CompletionException(e);
            }
        });
        boolean[] held = {false};
        try {
            await(() -> running.isDone() || (held[0] = done.holds(soak, target)));
        } finally {
            soak.stop();
        }
        assertThat(held[0]).as("the condition held before the soak ended").isTrue();
        return running.join();
    }

    @Test
    void aBatchThatOutlivesTheInstancesBoundStopsTheSoakNamingTheInstanceTheOperationAndTheBound() throws Exception {
        Soak.Options options = options(null, false);
        L2AdapterRegistry registry = L2AdapterRegistry.of(new HungAdapterDouble.Provider());
        try (L1Arena arena = L1Arena.allocate(Soak.l1BytesNeeded(options), L1Arena.DEFAULT_ALIGNMENT, false);
             Instances instances = Instances.create(Declarations.load(registry, List.of(),
                     List.of("{\"type\":\"hung\",\"name\":\"stuck\"}")), arena, new MetricRegistry(), Duration.ofMillis(200))) {
            Target target = new Target("stuck", "hung", 0, instances.select("stuck").adapter(), options.keys(),
                    options.faultSettleNanos());
            Soak soak = new Soak(options, List.of(target), arena, new MetricRegistry(), new PrintWriter(new StringWriter()), RUN_ID);
            long start = System.nanoTime();
            assertThatThrownBy(soak::run).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("soak worker failed: ")
                    .hasMessageMatching(".*instance 'stuck': (store|lookup|load|delete) of \\d+ keys? did not complete within 0.2 s"
                            + " \\(the host's bound on a batch\\); the adapter may be hung");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("long before the soak's duration").isLessThan(LIMIT);
        }
    }

    /** Waits for a condition, checking it every 10 ms, for at most a minute. */
    private static void await(Condition0 condition) throws Exception {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.holds()) {
            assertThat(System.nanoTime() - deadline).as("waited a minute for a condition").isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    private static long sum(Target target, java.util.function.ToLongFunction<OpStats.Snapshot> figure) {
        return java.util.Arrays.stream(Op.values()).mapToLong(op -> figure.applyAsLong(target.stats(op).snapshot())).sum();
    }

    private static long sum(SoakReport.InstanceReport report, java.util.function.ToLongFunction<OpStats.Snapshot> figure) {
        return report.ops().values().stream().mapToLong(figure).sum();
    }

    @Test
    void theMemoryAdapterDoubleLosesAndCorruptsNothing() throws Exception {
        InMemoryAdapterDouble honest = new InMemoryAdapterDouble();
        SoakReport report = soak("honest", honest, t -> t.stats(Op.LOAD).snapshot().verified() >= 500);
        SoakReport.InstanceReport r = report.instance("honest");
        assertThat(r.ops().get(Op.LOAD).verified()).isEqualTo(r.ops().get(Op.LOAD).ok());
        assertThat(sum(r, OpStats.Snapshot::phantom)).isZero();
        assertThat(r.corrupted()).isZero();
        assertThat(r.lost()).isZero();
        assertThat(r.windows()).isEmpty();
        assertThat(report.exitCode()).isEqualTo(Main.OK);
        assertThat(report.toText()).endsWith("(stopped early)\n");
    }

    @Test
    void aByteFlippedOnLoadIsCountedAsCorruptedAndFailsTheSoak() throws Exception {
        CorruptingAdapterDouble corrupting = new CorruptingAdapterDouble(10);
        StringWriter err = new StringWriter();
        SoakReport report = soak("corrupting", corrupting, new MetricRegistry(), null,
                (soak, t) -> t.stats(Op.LOAD).snapshot().foreign() >= 3, err);
        OpStats.Snapshot load = report.instance("corrupting").ops().get(Op.LOAD);
        assertThat(load.foreign()).as("every flipped byte, and nothing else").isEqualTo(corrupting.flipped.get());
        assertThat(err.toString().lines().filter(line -> line.matches(
                "kvtier: soak [0-9.]+ s: instance 0 key \\d+, expected version \\d+ \\((PRESENT|UNKNOWN)\\), loaded "
                        + "the header of instance 0 key \\d+ version \\d+, other bytes after it")))
                .as("each corrupted load described on stderr").hasSize((int) load.foreign());
        assertThat(load.stale()).isZero();
        assertThat(load.verified() + load.foreign()).isEqualTo(load.ok());
        assertThat(report.instance("corrupting").lost()).isZero();
        assertThat(report.exitCode()).isEqualTo(Main.FAILED);
        assertThat(report.toText()).contains("corrupting (double): FAILED", "corrupted " + load.foreign() + " (stale 0, foreign "
                + load.foreign() + ")");
    }

    @Test
    void anOlderVersionServedAfterADeleteThatDidNothingIsStaleAndTheUndeadKeysArePhantoms() throws Exception {
        SoakReport report = soak("undeleting", new UndeletingAdapterDouble(),
                t -> t.stats(Op.LOAD).snapshot().stale() >= 3 && t.stats(Op.LOOKUP).snapshot().phantom() >= 1);
        SoakReport.InstanceReport r = report.instance("undeleting");
        assertThat(r.ops().get(Op.LOAD).stale()).isGreaterThanOrEqualTo(3);
        assertThat(r.ops().get(Op.LOAD).foreign()).isZero();
        assertThat(r.ops().get(Op.LOOKUP).phantom()).isPositive();
        assertThat(r.lost()).isZero();
        assertThat(report.exitCode()).isEqualTo(Main.FAILED);
    }

    @Test
    void anObjectSilentlyForgottenIsCountedAsLostAndFailsTheSoak() throws Exception {
        ForgetfulAdapterDouble forgetful = new ForgetfulAdapterDouble(7);
        StringWriter err = new StringWriter();
        SoakReport report = soak("forgetful", forgetful, new MetricRegistry(), null,
                (soak, t) -> sum(t, OpStats.Snapshot::lost) >= 3, err);
        SoakReport.InstanceReport r = report.instance("forgetful");
        assertThat(r.lost()).isPositive().isLessThanOrEqualTo(forgetful.forgotten.get());
        assertThat(err.toString().lines().filter(line -> line.matches(
                "kvtier: soak [0-9.]+ s: instance 0 key \\d+, version \\d+ stored from [0-9.]+ s, lost: a (lookup|load|delete) says missing")))
                .as("each lost key described on stderr").hasSize((int) r.lost());
        assertThat(sum(r, OpStats.Snapshot::missingAfterFault)).isZero();
        assertThat(r.evicted()).isZero();
        assertThat(r.corrupted()).isZero();
        assertThat(r.windows()).isEmpty();
        assertThat(report.exitCode()).isEqualTo(Main.FAILED);
        assertThat(report.toJson()).contains("\"passed\":false", "\"lost\":" + r.lost(), "\"evicting\":false");
        assertThat(report.toText()).as("as before --evicting existed").doesNotContain("evicted");
    }

    @Test
    void underEvictingAnObjectSilentlyForgottenIsEvictedNotLostAndPassesTheSoak() throws Exception {
        ForgetfulAdapterDouble forgetful = new ForgetfulAdapterDouble(7);
        StringWriter err = new StringWriter();
        SoakReport report = soakEvicting("forgetful", forgetful, (soak, t) -> sum(t, OpStats.Snapshot::evicted) >= 3, err);
        SoakReport.InstanceReport r = report.instance("forgetful");
        assertThat(r.evicted()).isGreaterThanOrEqualTo(3).isLessThanOrEqualTo(forgetful.forgotten.get());
        assertThat(r.lost()).isZero();
        assertThat(r.corrupted()).isZero();
        assertThat(err.toString()).as("an eviction is not described as a loss").doesNotContain("lost");
        assertThat(report.exitCode()).isEqualTo(Main.OK);
        assertThat(report.toText()).contains("forgetful (double): PASSED",
                "soak PASSED: 0 corrupted, 0 lost, " + r.evicted() + " evicted, 0 errors in 1 instance(s)");
        assertThat(report.toText()).containsPattern("load +ok \\d+ .*  lost 0  evicted \\d+  missing after fault 0");
        assertThat(report.toJson()).contains("\"passed\":true", "\"evicting\":true", "\"evicted\":" + r.evicted(), "\"lost\":0");
    }

    @Test
    void underEvictingAByteFlippedOnLoadIsStillCorruptedAndFailsTheSoak() throws Exception {
        CorruptingAdapterDouble corrupting = new CorruptingAdapterDouble(10);
        SoakReport report = soakEvicting("corrupting", corrupting,
                (soak, t) -> t.stats(Op.LOAD).snapshot().foreign() >= 3, new StringWriter());
        SoakReport.InstanceReport r = report.instance("corrupting");
        assertThat(r.corrupted()).isGreaterThanOrEqualTo(3).isEqualTo(corrupting.flipped.get());
        assertThat(r.evicted()).as("the double forgets nothing").isZero();
        assertThat(report.exitCode()).isEqualTo(Main.FAILED);
        assertThat(report.toText()).contains("corrupting (double): FAILED");
    }

    @Test
    void underEvictingTheMemoryAdapterAtASmallCapacityEvictsAndLosesAndCorruptsNothing() throws Exception {
        Soak.Options options = options(null, true);
        L2AdapterRegistry registry = L2AdapterRegistry.of(new MemoryAdapterProvider());
        try (L1Arena arena = L1Arena.allocate(Soak.l1BytesNeeded(options), L1Arena.DEFAULT_ALIGNMENT, false);
             Instances instances = Instances.create(Declarations.load(registry, List.of(), List.of(
                     "{\"type\":\"memory\",\"name\":\"small\",\"capacity\":\"64 KiB\"}")), arena, new MetricRegistry())) {
            // 64 objects of 1 KiB, of 512 keys
            SoakReport report = soak(options, arena, "small", instances.select("small").adapter(), new MetricRegistry(),
                    (soak, t) -> sum(t, OpStats.Snapshot::evicted) >= 50 && t.stats(Op.LOAD).snapshot().verified() >= 50,
                    new StringWriter());
            SoakReport.InstanceReport r = report.instance("small");
            assertThat(r.evicted()).isGreaterThanOrEqualTo(50);
            assertThat(r.ops().get(Op.LOAD).verified()).isEqualTo(r.ops().get(Op.LOAD).ok());
            assertThat(r.corrupted()).isZero();
            assertThat(r.lost()).isZero();
            assertThat(report.exitCode()).isEqualTo(Main.OK);
        }
    }

    @Test
    void underEvictingSealedKeysFoundMissingAtTheEndAreEvictedAndPass() throws Exception {
        InMemoryAdapterDouble store = new InMemoryAdapterDouble();
        SoakReport report = soakEvicting("sealed", store, sealThenEvictAll(store, false), new StringWriter());
        assertThat(report.instance("sealed").sealed()).isEqualTo(new Sealed(32, 0, 0, 32, 0, 0));
        assertThat(report.exitCode()).isEqualTo(Main.OK);
        assertThat(report.toText()).contains("sealed keys 32: verified 0, missing 0, evicted 32, corrupted 0, unread 0 at the end");
    }

    @Test
    void underEvictingASealedKeyWithWrongBytesAtTheEndStillFailsTheSoak() throws Exception {
        InMemoryAdapterDouble store = new InMemoryAdapterDouble();
        SoakReport report = soakEvicting("sealed", store, sealThenEvictAll(store, true), new StringWriter());
        SoakReport.InstanceReport r = report.instance("sealed");
        assertThat(r.sealed()).isEqualTo(new Sealed(32, 0, 0, 31, 1, 0));
        assertThat(r.corrupted()).as("the workload never touches a sealed key").isZero();
        assertThat(report.exitCode()).isEqualTo(Main.FAILED);
    }

    /**
     * Seals once 200 loads verified, then drops every object the store holds, with no error; with
     * {@code corruptOne}, all but the first sealed key, whose bytes it flips. Holds once the workload
     * has found 10 of the dropped keys missing (the double evicts nothing itself).
     */
    private static Condition sealThenEvictAll(InMemoryAdapterDouble store, boolean corruptOne) {
        boolean[] sealed = {false};
        return (soak, target) -> {
            if (!sealed[0] && target.stats(Op.LOAD).snapshot().verified() >= 200) {
                soak.seal();
                ObjectKey first = Operations.wireKey(RUN_ID, 0, target.sealed[0]);
                byte[] bytes = store.objects.get(first);
                store.objects.clear();
                if (corruptOne) {
                    bytes[bytes.length / 2] ^= 1;
                    store.objects.put(first, bytes);
                }
                sealed[0] = true;
            }
            return sealed[0] && sum(target, OpStats.Snapshot::evicted) >= 10;
        };
    }

    @Test
    void errorsDuringARestartOpenAFaultWindowAndWhatItLostIsMissingAfterFaultNotLost() throws Exception {
        RestartingAdapterDouble restarting = new RestartingAdapterDouble(2000, 100, options(null, false).threads());
        StringWriter err = new StringWriter();
        SoakReport report = soak("restarting", restarting, new MetricRegistry(), null, (soak, t) ->
                restarting.keysAfterRecovery() > 0 && !t.faults.isOpen() && sum(t, OpStats.Snapshot::missingAfterFault) >= 10, err);
        SoakReport.InstanceReport r = report.instance("restarting");
        assertThat(err.toString().lines().filter(line -> line.matches("kvtier: soak [0-9.]+ s: instance 0 key \\d+, version \\d+ "
                + "stored from [0-9.]+ s, missing after a fault: a (lookup|load|delete) says missing")))
                .as("each key missing after the fault described on stderr, to be traced")
                .hasSize((int) sum(r, OpStats.Snapshot::missingAfterFault));
        assertThat(r.errors()).isEqualTo(restarting.failed.get()).isPositive();
        assertThat(r.ops().values()).allSatisfy(s -> assertThat(s.errorsByKind().keySet())
                .isSubsetOf("transient -900"));
        assertThat(r.windows()).hasSize(1);
        FaultWindows.Window window = r.windows().get(0);
        assertThat(window.open()).isFalse();
        assertThat(window.errors()).isEqualTo(restarting.failed.get());
        assertThat(sum(r, OpStats.Snapshot::missingAfterFault)).isGreaterThanOrEqualTo(10);
        assertThat(r.lost()).isZero();
        assertThat(r.corrupted()).isZero();
        assertThat(report.exitCode()).isEqualTo(Main.OK);
        assertThat(r.afterFault().judged()).as("each key missing after the fault was judged, and maybe others")
                .isGreaterThanOrEqualTo(sum(r, OpStats.Snapshot::missingAfterFault));
        assertThat(r.verdict()).isEqualTo(SoakReport.PASSED);
        long atRisk = r.afterFault().judged() + r.afterFault().notJudged();
        assertThat(report.toText()).contains("errors by kind: transient -900=" + restarting.failed.get(),
                restarting.failed.get() + " errors",
                "  after faults: judged " + r.afterFault().judged() + " of " + atRisk + " objects a fault may have hit; "
                        + r.afterFault().notJudged() + " not judged",
                "; judged " + r.afterFault().judged() + " of " + atRisk + " objects a fault may have hit");
        assertThat(report.toJson()).contains("\"after_fault\":{");
    }

    @Test
    void aWindowOpenedByAnUnhealthyAnswerStartsWhenTheAnswerCameNotWhenThePollWasSent() throws Exception {
        // A batch asked while the poll was in flight may have been answered before the fault: it must judge nothing.
        long[] firstAnswerNanos = {0};
        InMemoryAdapterDouble unhealthy = new InMemoryAdapterDouble() {
            @Override
            public Health health() {
                Health answer = Health.unhealthy("restarting", Instant.now());
                synchronized (firstAnswerNanos) {
                    if (firstAnswerNanos[0] == 0) {
                        firstAnswerNanos[0] = System.nanoTime();
                    }
                }
                return answer;
            }
        };
        SoakReport report = soak("unhealthy", unhealthy, target -> !target.faults.windows().isEmpty());
        FaultWindows.Window window = report.instance("unhealthy").windows().get(0);
        assertThat(window.reason()).isEqualTo("unhealthy");
        synchronized (firstAnswerNanos) {
            assertThat(window.startNanos()).isGreaterThanOrEqualTo(firstAnswerNanos[0]);
        }
    }

    @Test
    void aSoakThatEndsBeforeItCouldJudgeAnyKeyAFaultMayHaveHitIsInconclusiveNotPassed() throws Exception {
        // Healthy for 2,000 keys, then failing every key until the end: nothing asked after the fault began answers.
        RestartingAdapterDouble gone = RestartingAdapterDouble.goneAfter(2000);
        SoakReport report = soak("gone", gone, target -> gone.failed.get() >= 100);
        SoakReport.InstanceReport r = report.instance("gone");

        assertThat(r.corrupted()).isZero();
        assertThat(r.lost()).isZero();
        assertThat(sum(r, OpStats.Snapshot::missingAfterFault)).isZero();
        assertThat(r.afterFault().judged()).isZero();
        assertThat(r.afterFault().notJudged()).as("keys stored before the fault").isPositive();
        assertThat(r.verdict()).isEqualTo(SoakReport.INCONCLUSIVE);
        assertThat(report.exitCode()).isEqualTo(Main.FAILED);
        assertThat(report.toText()).contains("gone (double): INCONCLUSIVE in ",
                "  after faults: judged 0 of " + r.afterFault().notJudged() + " objects a fault may have hit",
                "soak INCONCLUSIVE: 0 corrupted, 0 lost, ")
                .doesNotContain("PASSED");
        assertThat(report.toJson()).contains("\"after_fault\":{\"judged\":0,\"not_judged\":" + r.afterFault().notJudged() + "}",
                "\"passed\":false,\"seconds\":", "\"verdict\":\"INCONCLUSIVE\"}");
    }

    @Test
    void whileEveryKeyFailsEachWorkerSendsAtMostTenBatchesASecond() throws Exception {
        RestartingAdapterDouble down = RestartingAdapterDouble.goneAfter(0); // failing every key, as with its master down
        long start = System.nanoTime();
        SoakReport report = soak("down", down, new MetricRegistry(), null,
                (soak, t) -> System.nanoTime() - start >= TimeUnit.SECONDS.toNanos(1), new StringWriter());
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        Soak.Options options = options(null, false);
        // At most one op per pause per worker, each op at most two batches (a store deletes first).
        long mostKeys = options.threads() * (elapsedMs / TimeUnit.NANOSECONDS.toMillis(FailurePacer.PAUSE_NANOS) + 2)
                * 2L * options.batch();
        assertThat(down.failed.get()).as("keys failed in %d ms", elapsedMs).isPositive().isLessThanOrEqualTo(mostKeys);
        assertThat(report.instance("down").errors()).isEqualTo(down.failed.get());
    }

    @Test
    void aFaultMarkedByAHarnessExcusesWhatVanishedSilentlyDuringIt() throws Exception {
        InMemoryAdapterDouble store = new InMemoryAdapterDouble();
        int[] phase = {0};
        SoakReport report = soak("marked", store, new MetricRegistry(), null, (soak, target) -> {
            if (phase[0] == 0 && target.stats(Op.LOAD).snapshot().verified() >= 200) {
                soak.mark(true);
                store.objects.clear(); // a storage node killed: what it held vanishes, and nothing reports an error
                phase[0] = 1;
            } else if (phase[0] == 1 && sum(target, OpStats.Snapshot::missingAfterFault) >= 10) {
                soak.mark(false);
                phase[0] = 2;
            }
            return phase[0] == 2;
        });
        SoakReport.InstanceReport r = report.instance("marked");
        assertThat(r.windows()).singleElement().satisfies(w -> {
            assertThat(w.marked()).isTrue();
            assertThat(w.open()).isFalse();
            assertThat(w.reason()).isEqualTo("marked fault");
            assertThat(w.errors()).isZero();
        });
        assertThat(sum(r, OpStats.Snapshot::missingAfterFault)).isGreaterThanOrEqualTo(10);
        assertThat(r.lost()).isZero();
        assertThat(r.corrupted()).isZero();
        assertThat(report.exitCode()).isEqualTo(Main.OK);
    }

    @Test
    void keysSealedBeforeAFaultThatKeepsThemAreEachVerifiedAtTheEnd() throws Exception {
        InMemoryAdapterDouble store = new InMemoryAdapterDouble();
        long[] verifiedAtSeal = {-1};
        SoakReport report = soak("sealed", store, new MetricRegistry(), null, (soak, target) -> {
            if (verifiedAtSeal[0] < 0 && target.stats(Op.LOAD).snapshot().verified() >= 200) {
                soak.seal();
                verifiedAtSeal[0] = target.stats(Op.LOAD).snapshot().verified();
            }
            return verifiedAtSeal[0] >= 0 && target.stats(Op.LOAD).snapshot().verified() >= verifiedAtSeal[0] + 200;
        });
        SoakReport.InstanceReport r = report.instance("sealed");
        assertThat(r.sealed().keys()).as("a sixteenth of the 512 keys").isEqualTo(32);
        assertThat(r.sealed()).isEqualTo(new Sealed(32, 32, 0, 0, 0, 0));
        assertThat(report.exitCode()).isEqualTo(Main.OK);
        assertThat(report.toText()).contains("sealed keys 32: verified 32, missing 0, corrupted 0, unread 0 at the end");
        assertThat(report.toJson()).contains("\"sealed\":{");
    }

    @Test
    void keysSealedBeforeAFaultThatLosesThemFailTheSoakThoughTheFaultExcusesTheOthers() throws Exception {
        InMemoryAdapterDouble store = new InMemoryAdapterDouble();
        int[] phase = {0};
        StringWriter err = new StringWriter();
        SoakReport report = soak("sealed", store, new MetricRegistry(), null, (soak, target) -> {
            if (phase[0] == 0 && target.stats(Op.LOAD).snapshot().verified() >= 200) {
                soak.seal();
                soak.mark(true);
                store.objects.clear(); // the fault loses everything, with no error
                phase[0] = 1;
            } else if (phase[0] == 1 && sum(target, OpStats.Snapshot::missingAfterFault) >= 10) {
                soak.mark(false);
                phase[0] = 2;
            }
            return phase[0] == 2;
        }, err);
        SoakReport.InstanceReport r = report.instance("sealed");
        assertThat(r.lost()).as("the unsealed keys are excused by the marked fault").isZero();
        assertThat(r.sealed()).isEqualTo(new Sealed(32, 0, 32, 0, 0, 0));
        assertThat(err.toString().lines().filter(line -> line.matches(
                "kvtier: soak: instance 0 sealed key \\d+, version \\d+ stored from [0-9.]+ s, missing at the end")))
                .as("each missing sealed key described on stderr").hasSize(32);
        assertThat(report.exitCode()).isEqualTo(Main.FAILED);
    }

    @Test
    void theMetricsEndpointServesTheAdaptersMetricsAndTheHealthGaugeOnLoopback() throws Exception {
        MetricRegistry metrics = new MetricRegistry();
        MeteredAdapterDouble metered = new MeteredAdapterDouble(metrics, Instances.metricPrefix("metered"));
        HttpClient http = HttpClient.newHttpClient();
        String[] body = {""};
        int[] port = {-1};
        soak("metered", metered, metrics, 0, (soak, target) -> {
            port[0] = soak.metricsPort();
            if (port[0] <= 0) {
                return false;
            }
            body[0] = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port[0] + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            return body[0].contains("kvtier_adapter_metered_objects_loaded") && !body[0].contains("kvtier_adapter_metered_objects_loaded 0.0");
        });
        assertThat(body[0]).contains("kvtier_soak_metered_healthy 1.0", "kvtier_soak_metered_fault_window_open 0.0",
                "kvtier_soak_metered_load_verified", "kvtier_soak_metered_load_corrupted 0.0",
                "kvtier_soak_metered_load_evicted 0.0", "# TYPE");
        assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port[0] + "/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString())).as("stopped with the soak").isInstanceOf(IOException.class);
    }
}
