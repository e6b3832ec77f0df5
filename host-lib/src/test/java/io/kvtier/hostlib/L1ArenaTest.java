package io.kvtier.hostlib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kenai.jffi.MemoryIO;
import io.kvtier.spi.L1Slice;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class L1ArenaTest {
    @Test
    void allocationsAreAlignedAndInsideTheRegion() {
        try (L1Arena arena = L1Arena.allocate(1 << 16, 4096, false)) {
            long base = arena.desc().address();
            assertThat(base % 4096).isZero();
            L1Slice a = arena.allocate(100);
            L1Slice b = arena.allocate(100);
            assertThat(a.address()).isEqualTo(base);
            assertThat(b.address()).isEqualTo(base + 4096);
            assertThat(b.length()).isEqualTo(100);
            assertThat(arena.desc().fullyAllocated()).isFalse();
        }
    }

    @Test
    void anEagerArenaSaysItIsFullyAllocated() {
        try (L1Arena arena = L1Arena.allocate(1 << 16, 4096, true)) {
            assertThat(arena.desc().fullyAllocated()).isTrue();
            assertThat(arena.desc().size()).isEqualTo(1 << 16);
        }
    }

    @Test
    void noAllocationCrossesARegistrationBlock() {
        try (L1Arena arena = L1Arena.allocate(1 << 16, 64, false)) {
            arena.keepWithinBlocks(1000);
            long base = arena.desc().address();
            for (int i = 0; i < 20; i++) {
                L1Slice slice = arena.allocate(300);
                long first = slice.address() - base;
                long last = first + slice.length() - 1;
                assertThat(first / 1000).as("slice %d", i).isEqualTo(last / 1000);
            }
            assertThatThrownBy(() -> arena.allocate(1001)).hasMessageContaining("is full");
        }
    }

    @Test
    void aFullArenaSaysSo() {
        try (L1Arena arena = L1Arena.allocate(8192, 4096, false)) {
            arena.allocate(4096);
            arena.allocate(4096);
            assertThatThrownBy(() -> arena.allocate(1)).hasMessageContaining("raise --l1-size");
            arena.reset();
            assertThat(arena.allocate(8192).length()).isEqualTo(8192);
        }
    }

    @Test
    void aFreedSliceIsReusedAndFreeNeighboursMerge() {
        try (L1Arena arena = L1Arena.allocate(4 * 4096, 4096, false)) {
            long base = arena.desc().address();
            L1Slice a = arena.allocate(4096);
            L1Slice b = arena.allocate(100);
            L1Slice c = arena.allocate(4096);
            arena.allocate(4096);
            assertThat(arena.used()).isEqualTo(4 * 4096);
            arena.free(b);
            L1Slice reused = arena.allocate(4000);
            assertThat(reused.address()).as("the lowest range that fits").isEqualTo(base + 4096);
            arena.free(a);
            assertThatThrownBy(() -> arena.allocate(8192)).as("a and c are not neighbours").hasMessageContaining("is full");
            arena.free(arena.allocate(4096)); // takes a's range and gives it back
            arena.free(reused);
            arena.free(c);
            assertThat(arena.allocate(3 * 4096).address()).as("a, b and c merged").isEqualTo(base);
        }
    }

    @Test
    void aSliceThatIsNotHeldCannotBeFreed() {
        try (L1Arena arena = L1Arena.allocate(8192, 4096, false);
             L1Arena other = L1Arena.allocate(8192, 4096, false)) {
            L1Slice slice = arena.allocate(10);
            assertThatThrownBy(() -> arena.free(other.allocate(10))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("not a slice this L1 arena holds: 0x");
            arena.free(slice);
            assertThatThrownBy(() -> arena.free(slice)).as("freed twice").isInstanceOf(IllegalArgumentException.class);
            assertThat(arena.used()).isZero();
        }
    }

    @Test
    void aLongRunningHostThatFreesWhatItAllocatedNeverRunsOut() {
        Random random = new Random(35);
        try (L1Arena arena = L1Arena.allocate(1 << 20, 4096, false)) {
            arena.keepWithinBlocks(256 << 10);
            List<L1Slice> live = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                if (!live.isEmpty() && (live.size() >= 16 || random.nextBoolean())) {
                    arena.free(live.remove(random.nextInt(live.size())));
                } else {
                    live.add(arena.allocate(1 + random.nextInt(32 << 10)));
                }
            }
            live.forEach(arena::free);
            assertThat(arena.used()).isZero();
            assertThat(arena.allocate(256 << 10).length()).as("one whole block again").isEqualTo(256 << 10);
        }
    }

    @Test
    void anArenaOverTheHostsOwnRegionLeavesItToTheHost() {
        MemoryIO io = MemoryIO.getInstance();
        long region = io.allocateMemory(3 * 4096, false);
        long aligned = (region + 4095) & -4096L;
        try {
            L1Slice slice;
            try (L1Arena arena = L1Arena.over(aligned, 2 * 4096, 4096, true)) {
                assertThat(arena.desc().address()).isEqualTo(aligned);
                assertThat(arena.desc().fullyAllocated()).isTrue();
                slice = arena.allocate(4096);
                assertThat(slice.address()).isEqualTo(aligned);
                slice.buffer().put(0, (byte) 7);
            }
            assertThat(io.getByte(aligned)).as("the host's region after close").isEqualTo((byte) 7);
        } finally {
            io.freeMemory(region);
        }
        assertThatThrownBy(() -> L1Arena.over(aligned + 1, 4096, 4096, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("aligned");
    }
}
