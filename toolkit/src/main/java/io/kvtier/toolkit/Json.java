package io.kvtier.toolkit;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** JSON-like values (String, Boolean, Number, List, Map, null) as JSON text, for messages and output. */
public final class Json {
    private Json() {}

    /** The JSON name of a value's type: object, array, string, number, boolean or null. */
    public static String typeName(Object value) {
        if (value == null) {
            return "null";
        } else if (value instanceof Map) {
            return "object";
        } else if (value instanceof List) {
            return "array";
        } else if (value instanceof String) {
            return "string";
        } else if (value instanceof Number) {
            return "number";
        } else if (value instanceof Boolean) {
            return "boolean";
        }
        return value.getClass().getSimpleName();
    }

    /** Compact JSON: no spaces, object members sorted by name so that output is stable. */
    public static String render(Object value) {
        StringBuilder out = new StringBuilder();
        render(value, out);
        return out.toString();
    }

    private static void render(Object value, StringBuilder out) {
        if (value instanceof Map<?, ?> map) {
            out.append('{');
            Map<String, Object> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
            Iterator<Map.Entry<String, Object>> it = sorted.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<String, Object> e = it.next();
                quote(e.getKey(), out);
                out.append(':');
                render(e.getValue(), out);
                if (it.hasNext()) {
                    out.append(',');
                }
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                render(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof String s) {
            quote(s, out);
        } else {
            out.append(value);
        }
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
