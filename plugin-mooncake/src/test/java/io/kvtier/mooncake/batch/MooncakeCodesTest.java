package io.kvtier.mooncake.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.mooncake.batch.MooncakeCodes.Kind;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MooncakeCodesTest {
    @ParameterizedTest
    @CsvSource({
        "-704, MISS, OBJECT_NOT_FOUND (-704)",
        "-900, TRANSIENT, RPC_FAIL (-900)",
        "-901, TRANSIENT, RPC_TIMEOUT (-901)",
        "-703, TRANSIENT, REPLICA_IS_NOT_READY (-703)",
        "-707, TRANSIENT, LEASE_EXPIRED (-707)",
        "-800, TRANSIENT, TRANSFER_FAIL (-800)",
        "-706, PERMANENT, OBJECT_HAS_LEASE (-706)",
        "-600, PERMANENT, INVALID_PARAMS (-600)",
        "-1, PERMANENT, INTERNAL_ERROR (-1)",
        "-200, PERMANENT, 'NO_AVAILABLE_HANDLE (-200): no segment has room for it; is any client contributing global_segment_size?'",
        "-4242, PERMANENT, -4242"
    })
    void everyCodeHasAKindAndAName(long code, Kind kind, String described) {
        assertThat(MooncakeCodes.kind(code)).isEqualTo(kind);
        assertThat(MooncakeCodes.describe(code)).isEqualTo(described);
    }

    @ParameterizedTest
    @CsvSource({
        "-800, TRANSIENT",
        "-900, TRANSIENT",
        "-200, NO_CAPACITY",
        "-600, PERMANENT",
        "-4242, PERMANENT"
    })
    void aKeysErrorCarriesItsKindCodeAndName(long code, ErrorKind kind) {
        KeyError error = MooncakeCodes.keyError(code, "Mooncake batch_put_from failed for key k");
        assertThat(error.kind()).isEqualTo(kind);
        assertThat(error.code()).hasValue(code);
        assertThat(error.message()).isEqualTo("Mooncake batch_put_from failed for key k: " + MooncakeCodes.describe(code));
    }
}
