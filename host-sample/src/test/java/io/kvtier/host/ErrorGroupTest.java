package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.spi.BatchFailedException;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyOutcome;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ErrorGroupTest {
    @Test
    void keysAreGroupedByKindAndCodeWhateverTheirMessages() {
        BatchResult result = new BatchResult(List.of(
                KeyOutcome.error(KeyError.of(ErrorKind.TRANSIENT, -800, "TRANSFER_FAIL for key a")),
                KeyOutcome.ok(),
                KeyOutcome.error(KeyError.of(ErrorKind.TRANSIENT, -800, "TRANSFER_FAIL for key b")),
                KeyOutcome.error(KeyError.of(ErrorKind.NO_CAPACITY, -200, "NO_AVAILABLE_HANDLE for key c")),
                KeyOutcome.error(KeyError.of(ErrorKind.PERMANENT, "short read for key d"))), 0);
        assertThat(ErrorGroup.count(result)).isEqualTo(Map.of("transient -800", 2L, "no_capacity -200", 1L, "permanent", 1L));
    }

    @Test
    void aFailedBatchIsClassifiedByItsExceptionThroughTheFuturesWrapping() {
        KeyError unreachable = KeyError.of(ErrorKind.TRANSIENT, "master unreachable");
        CompletableFuture<BatchResult> failed = CompletableFuture.failedFuture(new BatchFailedException(unreachable));
        CompletionException wrapped = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, failed::join);
        assertThat(ErrorGroup.classify(wrapped)).isEqualTo(unreachable);
        assertThat(ErrorGroup.label(ErrorGroup.classify(new IllegalStateException("adapter closed"))))
                .isEqualTo("unclassified");
        assertThat(ErrorGroup.classify(new IllegalStateException()).message()).isEqualTo("java.lang.IllegalStateException");
    }
}
