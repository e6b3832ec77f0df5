package io.kvtier.toolkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void rendersCompactlyWithSortedMembersAndEscapes() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("b", Arrays.asList(1, 2.5, true, null));
        value.put("a", "q\"\\\n\u0001");
        assertThat(Json.render(value)).isEqualTo("{\"a\":\"q\\\"\\\\\\n\\u0001\",\"b\":[1,2.5,true,null]}");
    }

    @Test
    void namesJsonTypes() {
        assertThat(List.of(Map.of(), List.of(), "s", 1, false).stream().map(Json::typeName))
                .containsExactly("object", "array", "string", "number", "boolean");
        assertThat(Json.typeName(null)).isEqualTo("null");
    }
}
