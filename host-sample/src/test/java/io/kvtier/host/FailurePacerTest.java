package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyOutcome;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FailurePacerTest {
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);
    private static final KeyOutcome ERROR = KeyOutcome.error(KeyError.of(ErrorKind.TRANSIENT, -900, "RPC_FAIL"));

    @Test
    void aBatchFailedForEveryKeyIsOneWithAKeyAndOnlyErrors() {
        assertThat(FailurePacer.everyKeyFailed(new BatchResult(List.of(ERROR, ERROR), 0))).isTrue();
        assertThat(FailurePacer.everyKeyFailed(new BatchResult(List.of(ERROR, KeyOutcome.missing()), 0))).isFalse();
        assertThat(FailurePacer.everyKeyFailed(BatchResult.empty())).isFalse();
    }

    /** A pause of an hour, in another thread; a test completes it within a minute or fails. */
    private static CompletableFuture<Void> pauseAnHour(FailurePacer pacer) {
        return CompletableFuture.runAsync(() -> pacer.pause(HOUR));
    }

    @Test
    void nothingFailedYetOrALastBatchThatDidNotFailWholeDoesNotWait() throws Exception {
        FailurePacer pacer = new FailurePacer();
        pauseAnHour(pacer).get(60, TimeUnit.SECONDS);
        pacer.batchEnded(true);
        pacer.batchEnded(false);
        pauseAnHour(pacer).get(60, TimeUnit.SECONDS);
    }

    @Test
    void whileTheLastBatchFailedWholeACallerWaitsTheWholePause() throws Exception {
        FailurePacer pacer = new FailurePacer();
        pacer.batchEnded(true);
        long start = System.nanoTime();
        pacer.pause(FailurePacer.PAUSE_NANOS);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(FailurePacer.PAUSE_NANOS);
    }

    @Test
    void anInterruptEndsTheWaitAndStaysSet() throws Exception {
        FailurePacer pacer = new FailurePacer();
        pacer.batchEnded(true);
        CompletableFuture<Boolean> interrupted = CompletableFuture.supplyAsync(() -> {
            Thread.currentThread().interrupt();
            pacer.pause(HOUR);
            return Thread.interrupted();
        });
        assertThat(interrupted.get(60, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aBatchThatDoesNotFailWholeEndsTheWaitAtOnce() throws Exception {
        FailurePacer pacer = new FailurePacer();
        pacer.batchEnded(true);
        CompletableFuture<Void> waiting = pauseAnHour(pacer);
        pacer.batchEnded(false);
        waiting.get(60, TimeUnit.SECONDS);
    }
}
