package io.kvtier.host.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MixTest {
    @Test
    void picksFollowTheWeightsAndLeftOutOperationsNeverRun() {
        Mix mix = Mix.parse("store=3, load=1");
        Map<Op, Integer> picks = new EnumMap<>(Op.class);
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 40_000; i++) {
            picks.merge(mix.pick(random), 1, Integer::sum);
        }
        assertThat(picks).containsOnlyKeys(Op.STORE, Op.LOAD);
        assertThat(picks.get(Op.STORE) / (double) picks.get(Op.LOAD)).isBetween(2.8, 3.2);
    }

    @Test
    void malformedMixesNameTheProblem() {
        assertThatThrownBy(() -> Mix.parse("store")).hasMessageEndingWith("'store' has no weight");
        assertThatThrownBy(() -> Mix.parse("store=x")).hasMessageEndingWith("'x' is not a whole number");
        assertThatThrownBy(() -> Mix.parse("store=-1")).hasMessageEndingWith("weights must not be negative");
    }

    @Test
    void durationsInTypesafeOrIsoForm() {
        assertThat(Durations.parse("10m", "--duration")).isEqualTo(Duration.ofMinutes(10));
        assertThat(Durations.parse("30s", "--duration")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("2 hours", "--duration")).isEqualTo(Duration.ofHours(2));
        assertThat(Durations.parse("PT1M30S", "--duration")).isEqualTo(Duration.ofSeconds(90));
        assertThatThrownBy(() -> Durations.parse("0s", "--fault-settle"))
                .hasMessage("--fault-settle must be a positive duration such as 30s, 10m or PT1H, got '0s'");
    }
}
