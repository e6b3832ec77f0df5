package io.kvtier.hostlib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvtier.spi.L1Slice;
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
}
