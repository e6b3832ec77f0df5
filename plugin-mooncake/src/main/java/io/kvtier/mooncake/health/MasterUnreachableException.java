package io.kvtier.mooncake.health;

import io.kvtier.spi.BatchFailedException;
import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;

/**
 * A batch refused without asking Mooncake, because the instance's health probe finds its master
 * unreachable. The batch fails at once instead of waiting out an RPC timeout; batches are sent
 * again as soon as the probe finds the master answering.
 */
public final class MasterUnreachableException extends BatchFailedException {
    private static final long serialVersionUID = 1L;

    public MasterUnreachableException(String instance, String reason) {
        super(KeyError.of(ErrorKind.TRANSIENT, "mooncake_store adapter '" + instance + "' is unhealthy, batch not sent: " + reason));
    }
}
