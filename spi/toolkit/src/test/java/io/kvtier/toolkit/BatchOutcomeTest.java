package io.kvtier.toolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import org.junit.jupiter.api.Test;

class BatchOutcomeTest {
    @Test
    void keepsTheFirstErrorAndCountsErrors() {
        BatchOutcome outcome = new BatchOutcome(3);
        outcome.ok(0);
        outcome.error(2, "second key failed");
        outcome.error(1, "later message");
        BatchResult result = outcome.build(7);
        assertThat(result.results()).containsExactly(KeyResult.OK, KeyResult.ERROR, KeyResult.ERROR);
        assertThat(result.firstError()).isEqualTo("second key failed");
        assertThat(result.newBytes()).isEqualTo(7);
        assertThat(outcome.errors()).isEqualTo(2);
    }

    @Test
    void aKeyWithoutAResultIsABug() {
        BatchOutcome outcome = new BatchOutcome(2);
        outcome.missing(0);
        assertThatThrownBy(() -> outcome.build(0)).hasMessage("key 1 of 2 has no result");
    }
}
