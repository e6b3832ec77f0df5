package io.kvtier.mooncake.batch;

import io.kvtier.spi.ErrorKind;
import io.kvtier.spi.KeyError;
import io.kvtier.spi.L1Slice;
import io.kvtier.toolkit.BatchOutcome;
import java.lang.ref.Reference;
import java.util.List;

/**
 * A store or load batch after its buffers were checked on the caller's thread: the keys whose
 * buffers passed go to native code, as parallel address/size arrays; the others carry their
 * error and never leave Java.
 */
public final class CheckedBuffers {
    private final List<L1Slice> slices;
    private final String[] rejections;
    private final int[] nativeIndices;
    private final long[] addresses;
    private final long[] sizes;

    private CheckedBuffers(List<L1Slice> slices, String[] rejections, int[] nativeIndices, long[] addresses,
                           long[] sizes) {
        this.slices = slices;
        this.rejections = rejections;
        this.nativeIndices = nativeIndices;
        this.addresses = addresses;
        this.sizes = sizes;
    }

    public static CheckedBuffers of(List<L1Slice> objects, BufferCheck check) {
        int n = objects.size();
        String[] rejections = new String[n];
        int accepted = 0;
        for (int i = 0; i < n; i++) {
            L1Slice slice = objects.get(i);
            rejections[i] = check.check(slice.address(), slice.length());
            if (rejections[i] == null) {
                accepted++;
            }
        }
        int[] indices = new int[accepted];
        long[] addresses = new long[accepted];
        long[] sizes = new long[accepted];
        for (int i = 0, j = 0; i < n; i++) {
            if (rejections[i] == null) {
                L1Slice slice = objects.get(i);
                indices[j] = i;
                addresses[j] = slice.address();
                sizes[j] = slice.length();
                j++;
            }
        }
        return new CheckedBuffers(objects, rejections, indices, addresses, sizes);
    }

    /** How many keys go to native code. */
    int nativeCount() {
        return nativeIndices.length;
    }

    /** Position in the batch of the j-th native key. */
    int[] nativeIndices() {
        return nativeIndices;
    }

    long[] addresses() {
        return addresses;
    }

    long[] sizes() {
        return sizes;
    }

    /**
     * To be called once native code is done with the addresses: until then the slices stay
     * reachable, so a direct buffer that only the batch refers to cannot be freed under the call.
     */
    void releaseSlices() {
        Reference.reachabilityFence(slices);
    }

    /** Whether the key at position {@code i} of the batch was rejected (and never goes to native code). */
    public boolean rejected(int i) {
        return rejections[i] != null;
    }

    /** Marks every rejected key as an error in {@code outcome}. */
    public void reportRejections(BatchOutcome outcome) {
        for (int i = 0; i < rejections.length; i++) {
            if (rejections[i] != null) {
                outcome.error(i, KeyError.of(ErrorKind.PERMANENT, rejections[i]));
            }
        }
    }
}
