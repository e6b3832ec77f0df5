package io.kvtier.mooncake.l1;

import io.kvtier.mooncake.config.MooncakeStoreConfig;
import io.kvtier.spi.ConfigurationException;
import io.kvtier.spi.L1MemoryDesc;
import java.util.Optional;

/**
 * The factory's L1 rule, with LMCache's two messages plus one for a lazily allocated L1. Over RDMA, Mooncake transfers straight
 * from L1, so the whole region must be registered up front: creation fails without a valid,
 * fully allocated descriptor rather than falling back to a slow or broken path. Over any other
 * protocol nothing is registered, even when the host offers a descriptor.
 */
public final class RdmaL1Rule {
    private RdmaL1Rule() {}

    /**
     * @return the region to register, or empty when the protocol is not RDMA
     * @throws ConfigurationException with the reference's exact messages
     */
    public static Optional<L1MemoryDesc> regionToRegister(MooncakeStoreConfig config, Optional<L1MemoryDesc> l1) {
        if (!config.isRdma()) {
            return Optional.empty();
        }
        L1MemoryDesc desc = l1.orElseThrow(() -> new ConfigurationException(
                "RDMA protocol is enabled, but no L1 memory descriptor was provided; cannot create Mooncake Store L2 adapter."));
        if (desc.address() == 0 || desc.size() <= 0) {
            throw new ConfigurationException(String.format(
                    "RDMA protocol is enabled, but the L1 memory descriptor is invalid (ptr=%d, size=%d); "
                            + "cannot create Mooncake Store L2 adapter.", desc.address(), desc.size()));
        }
        if (!desc.fullyAllocated()) {
            // A lazily touched region is only partly backed; registering its final size would pin
            // or fault pages the host has not allocated (LMCache only documented this).
            throw new ConfigurationException(String.format(
                    "RDMA protocol is enabled, but the L1 memory region (ptr=%d, size=%d) is allocated lazily; "
                            + "Mooncake must register all of it up front, so run the host with --no-l1-use-lazy.",
                    desc.address(), desc.size()));
        }
        return Optional.of(desc);
    }
}
