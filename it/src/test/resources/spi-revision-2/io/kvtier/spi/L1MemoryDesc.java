package io.kvtier.spi;

/**
 * The host's L1 region, as handed to adapters that register it with a NIC.
 *
 * @param address        base address of the contiguous off-heap region
 * @param size           its final size in bytes
 * @param alignment      alignment of every allocation the host makes from it
 * @param fullyAllocated whether every page is already backed (false for a lazily touched region,
 *                       which RDMA registration must not pin)
 */
public record L1MemoryDesc(long address, long size, long alignment, boolean fullyAllocated) {}
