package io.kvtier.mooncake;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * One thread's buffer for {@code kvt_nodes}, and the parser of its text: one line per node,
 * {@code <endpoint> <0|1 suspect> <ms suspect>}.
 */
final class NodeTableText {
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();

    private ByteBuffer buffer;
    private Pointer pointer;

    NodeTableText() {
        grow(4096);
    }

    void grow(int capacity) {
        buffer = ByteBuffer.allocateDirect(capacity);
        pointer = Pointer.wrap(RUNTIME, buffer);
    }

    Pointer pointer() {
        return pointer;
    }

    int capacity() {
        return buffer.capacity();
    }

    /** The first {@code length} bytes, as endpoint to whether it is suspect, in the connector's order. */
    Map<String, Boolean> parse(int length) {
        byte[] bytes = new byte[length];
        buffer.get(0, bytes);
        Map<String, Boolean> nodes = new LinkedHashMap<>();
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            String[] fields = line.split(" ");
            if (fields.length == 3) {
                nodes.put(fields[0], fields[1].equals("1"));
            }
        }
        return nodes;
    }
}
