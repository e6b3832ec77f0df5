package io.kvtier.spi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One declared instance, before its type parses it.
 *
 * @param name   the instance name (declared, or {@code <type>-<index>})
 * @param type   the adapter type name
 * @param body   the declaration without {@code name}
 * @param source where it was declared: {@code file:line} or {@code --l2-adapter #i}
 */
public record AdapterDeclaration(String name, String type, Map<String, Object> body, String source) {
    public AdapterDeclaration {
        body = Collections.unmodifiableMap(new LinkedHashMap<>(body));
    }
}
