package io.kvtier.mooncake;

/**
 * A whole native batch failed: Mooncake could not be asked, or answered with the wrong number
 * of results, so no per-key outcome is known. The future of that batch fails with this.
 */
public final class MooncakeBatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int code;

    MooncakeBatchException(String operation, int code, String nativeMessage) {
        super("Mooncake " + operation + " batch failed (code " + code + "): "
                + (nativeMessage == null || nativeMessage.isEmpty() ? "no message from the connector" : nativeMessage));
        this.code = code;
    }

    /** The connector's negative return code. */
    public int code() {
        return code;
    }
}
