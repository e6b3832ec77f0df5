package io.kvtier.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ErrorCauseTest {
    @Test
    void mooncakeCodesAreTheCause() {
        assertThat(ErrorCause.of("Mooncake batch_put_from failed for key m@00000000@0@0a0b: RPC_FAIL (-900)"))
                .isEqualTo("RPC_FAIL (-900)");
        assertThat(ErrorCause.of("Mooncake batchIsExist failed for key m@00000000@0@0a0b: OBJECT_NOT_FOUND (-704)"))
                .isEqualTo("OBJECT_NOT_FOUND (-704)");
        assertThat(ErrorCause.of("Mooncake batchRemove failed for key m@00000000@0@0a0b: -800")).isEqualTo("code -800");
    }

    @Test
    void otherMessagesLoseTheirKeysAndNumbers() {
        assertThat(ErrorCause.of("short read for key m@00000000@0@0a0b: Mooncake returned 12 bytes, expected 4096"))
                .isEqualTo("short read for key <key> Mooncake returned N bytes, expected N");
        assertThat(ErrorCause.of("")).isEqualTo("error without a message");
        assertThat(ErrorCause.of("x".repeat(200))).hasSize(80).endsWith("...");
    }

    @Test
    void aFailedBatchIsNamedByTheExceptionInside() {
        assertThat(ErrorCause.of(new CompletionException(new IllegalStateException("mooncake_store adapter 'a' is closed"))))
                .isEqualTo("mooncake_store adapter 'a' is closed");
        assertThat(ErrorCause.of(new CompletionException(new NullPointerException()))).isEqualTo("NullPointerException");
        assertThat(ErrorCause.of(new CompletionException(new IllegalStateException(
                "Mooncake get batch failed (code -3): Mooncake batch_get_into returned 9 results for 8 keys"))))
                .isEqualTo("Mooncake get batch failed (code -3)");
    }
}
