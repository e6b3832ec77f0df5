package io.kvtier.mooncake.l1;

import io.kvtier.mooncake.batch.BufferCheck;
import io.kvtier.mooncake.binding.MooncakeClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The host's L1 region registered with Mooncake (RDMA only), as LMCache's
 * {@code preregister_l1_memory}: in blocks of Mooncake's {@code max_mr_size} (a NIC cannot
 * register more in one memory region, and Mooncake once silently truncated larger ones), with
 * rollback when a block fails. Every buffer is checked against the region before each call,
 * because with lazy registration disabled a buffer outside the region, or crossing two regions,
 * cannot be transferred.
 */
public final class L1Registration implements BufferCheck, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(L1Registration.class.getName());
    public static final L1Registration DISABLED = new L1Registration(null, 0, 0, 0, List.of());

    /** One registered block: [address, address + length). */
    record Block(long address, long length) {}

    private final MooncakeClient client;
    private final long base;
    private final long size;
    private final long blockSize;
    private final List<Block> blocks;
    private final AtomicBoolean registered;

    private L1Registration(MooncakeClient client, long base, long size, long blockSize, List<Block> blocks) {
        this.client = client;
        this.base = base;
        this.size = size;
        this.blockSize = blockSize;
        this.blocks = Collections.unmodifiableList(blocks);
        this.registered = new AtomicBoolean(!blocks.isEmpty());
    }

    /**
     * Registers [base, base + size). If block k fails, blocks k-1 … 0 are unregistered in reverse
     * order and creation fails.
     *
     * @throws IllegalStateException "Mooncake preregister_l1_memory failed: …" naming the block
     */
    public static L1Registration register(MooncakeClient client, long base, long size) {
        long maxMr = client.maxMrSize();
        long blockSize = maxMr <= 0 || maxMr > size ? size : maxMr;
        long count = (size + blockSize - 1) / blockSize;
        List<Block> done = new ArrayList<>();
        for (long offset = 0; offset < size; offset += blockSize) {
            Block block = new Block(base + offset, Math.min(blockSize, size - offset));
            String error = client.register(block.address(), block.length());
            if (error != null) {
                rollback(client, done);
                throw new IllegalStateException(String.format(
                        "Mooncake preregister_l1_memory failed: block %d (0-based) of %d (address %d, length %d, block size %d): %s",
                        done.size(), count, block.address(), block.length(), blockSize, error));
            }
            done.add(block);
        }
        return new L1Registration(client, base, size, blockSize, done);
    }

    private static void rollback(MooncakeClient client, List<Block> done) {
        for (int k = done.size() - 1; k >= 0; k--) {
            String error = client.unregister(done.get(k).address());
            if (error != null) {
                LOG.log(Level.WARNING, "rollback of L1 block {0} failed: {1}", new Object[] {k, error});
            }
        }
    }

    /** LMCache's {@code ensure_registered}, with its messages. */
    @Override
    public String check(long address, long length) {
        if (address == 0) {
            return "Mooncake buffer registration failed: null buffer";
        }
        if (length <= 0) {
            return "Mooncake buffer registration failed: zero length";
        }
        // Unsigned-safe containment: offset within the region and the tail not past its end.
        long offset = address - base;
        if (Long.compareUnsigned(address, base) < 0 || Long.compareUnsigned(offset, size) >= 0
                || Long.compareUnsigned(length, size - offset) > 0) {
            return "Buffer is outside of preregistered L1 region; Mooncake lazy registration is disabled";
        }
        if (offset / blockSize != (offset + length - 1) / blockSize) {
            return "Buffer crosses preregistered Mooncake regions";
        }
        return null;
    }

    /** Unregisters every block, once; the owner calls it after the lanes have drained. */
    @Override
    public void close() {
        if (!registered.compareAndSet(true, false)) {
            return;
        }
        for (int k = 0; k < blocks.size(); k++) {
            String error = client.unregister(blocks.get(k).address());
            if (error != null) {
                LOG.log(Level.WARNING, "unregistering L1 block {0} failed: {1}", new Object[] {k, error});
            }
        }
    }

    public boolean enabled() {
        return !blocks.isEmpty();
    }

    public long registeredBytes() {
        return registered.get() ? size : 0;
    }

    public int blockCount() {
        return registered.get() ? blocks.size() : 0;
    }

    public long blockSize() {
        return blockSize;
    }
}
