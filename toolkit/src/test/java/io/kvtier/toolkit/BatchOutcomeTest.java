package io.kvtier.toolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.KeyResult;
import org.junit.jupiter.api.Test;

class BatchOutcomeTest {
    @Test
    void keepsEachKeysErrorAndBytesInKeyOrder() {
        BatchOutcome outcome = new BatchOutcome(4);
        outcome.ok(0, 4096);
        outcome.error(3, KeyError.of(ErrorKind.NO_CAPACITY, -200, "full"));
        outcome.error(1, KeyError.of(ErrorKind.TRANSIENT, -800, "node gone"));
        outcome.missing(2);
        BatchResult result = outcome.build(4096);
        assertThat(result.results()).containsExactly(KeyResult.OK, KeyResult.ERROR, KeyResult.MISSING, KeyResult.ERROR);
        assertThat(result.outcomes().get(0).bytes()).isEqualTo(4096);
        assertThat(result.error(1)).contains(KeyError.of(ErrorKind.TRANSIENT, -800, "node gone"));
        assertThat(result.error(3).orElseThrow().kind()).isEqualTo(ErrorKind.NO_CAPACITY);
        assertThat(result.error(2)).isEmpty();
        assertThat(result.firstError()).as("the first key that failed, not the first recorded").isEqualTo("node gone");
        assertThat(result.newBytes()).isEqualTo(4096);
        assertThat(outcome.errors()).isEqualTo(2);
    }

    @Test
    @SuppressWarnings("deprecation")
    void aMessageAloneIsAnUnclassifiedError() {
        BatchOutcome outcome = new BatchOutcome(1);
        outcome.error(0, "it broke");
        assertThat(outcome.build(0).error(0)).contains(KeyError.of(ErrorKind.UNCLASSIFIED, "it broke"));
    }

    @Test
    void aKeyWithoutAResultIsABug() {
        BatchOutcome outcome = new BatchOutcome(2);
        outcome.missing(0);
        assertThatThrownBy(() -> outcome.build(0)).hasMessage("key 1 of 2 has no result");
    }
}
