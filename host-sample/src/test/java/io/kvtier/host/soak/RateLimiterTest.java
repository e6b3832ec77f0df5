package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RateLimiterTest {
    @Test
    void operationsAreSpacedToTheRate() {
        RateLimiter limiter = new RateLimiter(100);
        long start = System.nanoTime();
        for (int i = 0; i < 21; i++) {
            limiter.acquire();
        }
        assertThat(System.nanoTime() - start).as("21 slots 10 ms apart").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
    }

    @Test
    void zeroIsUnlimited() {
        RateLimiter limiter = new RateLimiter(0);
        long start = System.nanoTime();
        for (int i = 0; i < 100_000; i++) {
            limiter.acquire();
        }
        // 100,000 slots at a rate of 100 would take 1,000 s.
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(60));
    }
}
