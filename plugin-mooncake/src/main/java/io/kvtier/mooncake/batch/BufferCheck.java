package io.kvtier.mooncake.batch;

/**
 * Decides, before a batch reaches native code, whether one buffer may be handed to Mooncake. A
 * bad buffer fails only its own key; the connector never sees it, so a bad address can never
 * crash the JVM inside Mooncake.
 */
public interface BufferCheck {
    /** Returns null when the buffer may be used, else the per-key error message. */
    String check(long address, long length);

    /** Over TCP nothing is registered, but native code must still never see a null or empty buffer. */
    BufferCheck NON_EMPTY = (address, length) -> {
        if (address == 0) {
            return "Mooncake buffer check failed: null buffer";
        }
        if (length <= 0) {
            return "Mooncake buffer check failed: zero length";
        }
        return null;
    };
}
