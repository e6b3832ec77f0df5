package io.kvtier.hostlib;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ByteSizesTest {
    @ParameterizedTest
    @CsvSource({
        "0, 0 B",
        "1, 1 B",
        "1023, 1023 B",
        "1024, 1 KiB",
        "1536, 1.50 KiB",
        "8192, 8 KiB",
        "1048575, 1024 KiB",
        "67108864, 64 MiB",
        "1000000000, 954 MiB",
        "1000000000000, 931 GiB",
        "1024000000000, 954 GiB",
        "2097152000000000, 1.86 PiB",
        "107374182400, 100 GiB",
        "106837311488, 99.5 GiB",
        "9223372036854775807, 8.00 EiB"
    })
    void readableSizesUseTheLargestUnitTheyFill(long bytes, String readable) {
        assertThat(ByteSizes.readable(bytes)).isEqualTo(readable);
        assertThat(ConfigValues.readableBytes(bytes)).isEqualTo(readable);
    }
}
