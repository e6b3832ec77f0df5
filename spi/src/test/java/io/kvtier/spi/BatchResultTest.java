package io.kvtier.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchResultTest {
    private static final KeyError GONE = KeyError.of(ErrorKind.TRANSIENT, -800, "TRANSFER_FAIL for k2");
    private static final KeyError FULL = KeyError.of(ErrorKind.NO_CAPACITY, -200, "NO_AVAILABLE_HANDLE for k3");

    @Test
    void theSummaryCountsOutcomesAndErrorsByKind() {
        BatchResult result = new BatchResult(List.of(KeyOutcome.ok(10), KeyOutcome.missing(), KeyOutcome.error(GONE),
                KeyOutcome.error(FULL), KeyOutcome.error(GONE)), 10);
        BatchResult.Summary summary = result.summary();
        assertThat(summary.ok()).isEqualTo(1);
        assertThat(summary.missing()).isEqualTo(1);
        assertThat(summary.errors()).isEqualTo(3);
        assertThat(summary.errorsByKind()).isEqualTo(Map.of(ErrorKind.TRANSIENT, 2, ErrorKind.NO_CAPACITY, 1));
        assertThat(summary.firstError()).contains(GONE);
        assertThat(result.firstError()).isEqualTo("TRANSFER_FAIL for k2");
        assertThat(result.count(KeyResult.ERROR)).isEqualTo(3);
        assertThat(result.allOk()).isFalse();
    }

    @Test
    @SuppressWarnings("deprecation")
    void aRevision2ResultKeepsItsMessageOnEveryErrorUnclassified() {
        BatchResult result = new BatchResult(List.of(KeyResult.OK, KeyResult.ERROR, KeyResult.MISSING), 5, "disk on fire");
        assertThat(result.results()).containsExactly(KeyResult.OK, KeyResult.ERROR, KeyResult.MISSING);
        assertThat(result.error(1)).contains(KeyError.of(ErrorKind.UNCLASSIFIED, "disk on fire"));
        assertThat(result.error(0)).isEmpty();
        assertThat(result.firstError()).isEqualTo("disk on fire");
        assertThat(result.newBytes()).isEqualTo(5);
        assertThat(new BatchResult(List.of(KeyResult.ERROR), 0, "").error(0).orElseThrow().message())
                .isEqualTo("error without a message");
    }

    @Test
    void anEmptyOrAllOkBatchHasNoErrors() {
        assertThat(BatchResult.empty().summary()).isEqualTo(new BatchResult.Summary(0, 0, 0, Map.of(), java.util.Optional.empty()));
        assertThat(BatchResult.allOk(3, 12).allOk()).isTrue();
        assertThat(BatchResult.allOk(3, 12).firstError()).isEmpty();
    }

    @Test
    void anOutcomeHasAnErrorExactlyWhenItIsAnError() {
        assertThatThrownBy(() -> new KeyOutcome(KeyResult.ERROR, 0, java.util.Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new KeyOutcome(KeyResult.OK, 0, java.util.Optional.of(GONE)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyOutcome.ok(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
