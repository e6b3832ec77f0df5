package io.kvtier.hostlib;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonSyntaxTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"type\":\"memory\",\"capacity\":\"64 MiB\"}       | -1",
            "{\"a\": [1, -2.5e3, true, false, null, {}], \"b\": \"\\u00e9\\n\"} | -1",
            "{oops                                               | 1",
            "{\"type\":\"memory\",}                              | 17",
            "{\"type\" \"memory\"}                               | 8",
            "{\"type\":\"memory\"                                | 16",
            "{\"n\": 01}                                         | 7",
            "{\"type\":\"memory\"} x                             | 18",
    })
    void findsTheFirstOffsetThatCannotContinueJson(String text, int offset) {
        assertThat(JsonSyntax.firstError(text.strip())).isEqualTo(offset);
    }
}
