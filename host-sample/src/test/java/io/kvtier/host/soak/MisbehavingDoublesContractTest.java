package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.L1MemoryDesc;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.ObjectKey;
import io.kvtier.testkit.L2AdapterContract;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * The soak's misbehaving doubles break, on purpose, the promises that the soak must catch them
 * breaking; the contract kit must catch them too, and fail exactly the tests of those promises.
 * The kit runs against each through the JUnit engine, as a plugin's build would run it; the
 * nested classes are not run by themselves (Surefire skips nested classes).
 */
class MisbehavingDoublesContractTest {
    private static final int CONTRACT_TESTS = 12;

    /** Forgets every object it stores, and still answers OK. */
    static class Forgetful extends L2AdapterContract {
        @Override
        protected L2Adapter createAdapter(L1MemoryDesc l1) {
            return new ForgetfulAdapterDouble(1);
        }
    }

    /** Flips a byte of every object it loads, and still answers OK. */
    static class Corrupting extends L2AdapterContract {
        @Override
        protected L2Adapter createAdapter(L1MemoryDesc l1) {
            return new CorruptingAdapterDouble(1);
        }
    }

    /** Answers OK to deletes and deletes nothing. */
    static class Undeleting extends L2AdapterContract {
        @Override
        protected L2Adapter createAdapter(L1MemoryDesc l1) {
            return new UndeletingAdapterDouble();
        }
    }

    /** A master gone for good: every key an RPC_FAIL error. */
    static class Restarting extends L2AdapterContract {
        @Override
        protected L2Adapter createAdapter(L1MemoryDesc l1) {
            return RestartingAdapterDouble.goneAfter(0);
        }
    }

    /** Not one of the soak's: completes its stores 100 ms late on a timer, and close() does not wait for them. */
    static class Lingering extends L2AdapterContract {
        @Override
        protected L2Adapter createAdapter(L1MemoryDesc l1) {
            return new InMemoryAdapterDouble() {
                @Override
                public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> slices) {
                    CompletableFuture<BatchResult> stored = super.store(keys, slices);
                    return keys.isEmpty() ? stored : stored.thenApplyAsync(result -> result,
                            CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS));
                }
            };
        }
    }

    private static Set<String> failedTests(Class<? extends L2AdapterContract> contract) {
        Events tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(contract)).execute().testEvents();
        assertThat(tests.started().count()).as("contract tests run against %s", contract.getSimpleName()).isEqualTo(CONTRACT_TESTS);
        Set<String> failed = new TreeSet<>();
        for (Event event : tests.failed().list()) {
            failed.add(((MethodSource) event.getTestDescriptor().getSource().orElseThrow()).getMethodName());
        }
        return failed;
    }

    @Test
    void aDoubleThatForgetsFailsTheTestsThatLoadWhatWasStored() {
        assertThat(failedTests(Forgetful.class)).containsExactlyInAnyOrderElementsOf(List.of(
                "aLoadIsOkOnlyIntoASliceOfTheObjectsLengthAndAnErrorIsNeverMissing", "perKeyResultsComeInKeyOrder",
                "aKeyStoredTwiceKeepsItsFirstValue", "listenersHearStoredAccessedAndDeletedKeys",
                // A store of a key it forgot counts the key's bytes again.
                "aStoreReportsBytesPerKeyOnlyOnAKeysFirstStore"));
    }

    @Test
    void aDoubleThatCorruptsFailsTheTestsThatCompareBytes() {
        assertThat(failedTests(Corrupting.class)).containsExactlyInAnyOrderElementsOf(List.of(
                "aLoadIsOkOnlyIntoASliceOfTheObjectsLengthAndAnErrorIsNeverMissing", "perKeyResultsComeInKeyOrder",
                "aKeyStoredTwiceKeepsItsFirstValue"));
    }

    @Test
    void aDoubleThatDoesNotDeleteFailsTheTestsThatDelete() {
        assertThat(failedTests(Undeleting.class)).containsExactlyInAnyOrderElementsOf(List.of(
                "perKeyResultsComeInKeyOrder", "listenersHearStoredAccessedAndDeletedKeys"));
    }

    @Test
    void anAdapterThatLeavesBatchesPendingAtCloseFailsTheCloseTest() {
        assertThat(failedTests(Lingering.class)).containsExactly("closeCompletesEveryBatchInFlight");
    }

    @Test
    void aDoubleThatFailsEveryKeyPassesOnlyTheTestsThatNeedNoAnswer() {
        Set<String> failed = failedTests(Restarting.class);
        assertThat(failed).hasSize(CONTRACT_TESTS - 3).doesNotContain("anEmptyBatchCompletesAtOnceWithAnEmptyResult",
                "closeCompletesEveryBatchInFlight", "listKeysPagesWithACursorAndAModelFilterOrIsUnsupported");
    }
}
