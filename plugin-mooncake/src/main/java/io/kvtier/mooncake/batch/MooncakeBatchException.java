package io.kvtier.mooncake.batch;

import io.kvtier.spi.BatchFailedException;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;

/**
 * A whole native batch failed: Mooncake could not be asked, or answered with the wrong number
 * of results, so no per-key outcome is known. The future of that batch fails with this.
 */
public final class MooncakeBatchException extends BatchFailedException {
    private static final long serialVersionUID = 1L;
    private final int code;

    public MooncakeBatchException(String operation, int code, String nativeMessage) {
        // The connector's codes are its own (-22 a broken contract, -1 anything else), not Mooncake's.
        super(KeyError.of(ErrorKind.PERMANENT, "Mooncake " + operation + " batch failed (code " + code + "): "
                + (nativeMessage == null || nativeMessage.isEmpty() ? "no message from the connector" : nativeMessage)));
        this.code = code;
    }

    /** The connector's negative return code. */
    public int code() {
        return code;
    }
}
