package io.kvtier.mooncake.binding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvtier.mooncake.Fixtures;
import io.kvtier.mooncake.TestDouble;
import io.kvtier.spi.ObjectKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;

class BatchSlabTest {

    /** Reads entry j back the way the connector does: keys[j] with key_lens[j] bytes. */
    private static String entry(BatchSlab slab, int j) {
        Pointer keys = slab.keys();
        long address = keys.getAddress(8L * j);
        int length = slab.lengths().getInt(4L * j);
        byte[] bytes = new byte[length];
        Pointer.wrap(Runtime.getSystemRuntime(), address).get(0, bytes, 0, length);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void encodesEveryKeyWithItsLength() {
        List<ObjectKey> keys = List.of(TestDouble.key(1),
                new ObjectKey(new byte[] {0, 1, 2, 3}, "llama", 255, 5, "alice"),
                new ObjectKey(new byte[] {(byte) 0xff}, "模型/ünïcode", 0));
        BatchSlab slab = BatchSlab.forCurrentThread();
        slab.encode(keys, null, keys.size());
        for (int j = 0; j < keys.size(); j++) {
            assertThat(entry(slab, j)).isEqualTo(keys.get(j).wireString());
        }
        assertThat(entry(slab, 1)).isEqualTo("llama@000000ff@5@00010203@alice");
    }

    @Test
    void encodesASubsetByIndex() {
        List<ObjectKey> keys = Fixtures.keys(0, 5);
        BatchSlab slab = BatchSlab.forCurrentThread();
        slab.encode(keys, new int[] {4, 1}, 2);
        assertThat(entry(slab, 0)).isEqualTo(keys.get(4).wireString());
        assertThat(entry(slab, 1)).isEqualTo(keys.get(1).wireString());
    }

    @Test
    void growsForManyAndLongKeys() {
        List<ObjectKey> keys = new ArrayList<>();
        String longModel = "m".repeat(5000);
        for (int i = 0; i < 1000; i++) {
            keys.add(new ObjectKey(new byte[] {(byte) i, (byte) (i >> 8)}, i % 100 == 0 ? longModel : "model", i));
        }
        BatchSlab slab = BatchSlab.forCurrentThread();
        slab.encode(keys, null, keys.size());
        for (int j = 0; j < keys.size(); j++) {
            assertThat(entry(slab, j)).isEqualTo(keys.get(j).wireString());
        }
        // Shrinking back to a small batch reuses the grown slab.
        slab.encode(keys.subList(0, 1), null, 1);
        assertThat(entry(slab, 0)).isEqualTo(keys.get(0).wireString());
    }

    @Test
    void carriesBufferAddressesAndSizesAndReadsResultsBesideTheKeys() {
        List<ObjectKey> keys = Fixtures.keys(0, 3);
        BatchSlab slab = BatchSlab.forCurrentThread();
        slab.encode(keys, null, 3);
        slab.buffers(new long[] {0x1000, 0x2000, 0x3000}, new long[] {11, 22, 33}, 3);
        for (int j = 0; j < 3; j++) {
            assertThat(slab.addresses().getLong(8L * j)).isEqualTo(0x1000L * (j + 1));
            assertThat(slab.sizes().getLong(8L * j)).isEqualTo(11L * (j + 1));
            slab.results().putLong(8L * j, -704L * j); // as the connector writes them
            assertThat(entry(slab, j)).isEqualTo(keys.get(j).wireString());
        }
        assertThat(slab.results(3)).containsExactly(0L, -704L, -1408L);
    }

    @Test
    void eachThreadHasItsOwnSlab() throws Exception {
        BatchSlab mine = BatchSlab.forCurrentThread();
        BatchSlab[] other = new BatchSlab[1];
        Thread t = new Thread(() -> other[0] = BatchSlab.forCurrentThread());
        t.start();
        t.join();
        assertThat(other[0]).isNotSameAs(mine);
        assertThat(BatchSlab.forCurrentThread()).isSameAs(mine);
    }
}
