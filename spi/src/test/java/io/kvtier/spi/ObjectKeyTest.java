package io.kvtier.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ObjectKeyTest {
    private static final byte[] HASH = {0, 1, 2, 3};

    @Test
    void rendersTheLmcacheWireVectors() {
        assertThat(new ObjectKey(HASH, "llama", 255).wireString()).isEqualTo("llama@000000ff@0@00010203");
        assertThat(new ObjectKey(HASH, "llama", 255, 5, "").wireString()).isEqualTo("llama@000000ff@5@00010203");
        assertThat(new ObjectKey(HASH, "llama", 255, 0, "alice").wireString())
                .isEqualTo("llama@000000ff@0@00010203@alice");
    }

    @Test
    void unsaltedKeysHaveExactlyThreeSeparators() {
        assertThat(new ObjectKey(HASH, "m", 1).wireString().chars().filter(c -> c == '@')).hasSize(3);
    }

    @Test
    void rankIsAMinimumWidthAndGroupIsUnpadded() {
        assertThat(new ObjectKey(HASH, "m", 0x1_0000_0000L, 0x1a, "").wireString()).isEqualTo("m@100000000@1a@00010203");
    }

    @Test
    void keepsSlashesInModelNames() {
        assertThat(new ObjectKey(HASH, "/models/llama-3/8b", 0).wireString()).startsWith("/models/llama-3/8b@");
    }

    @Test
    void kvRankPacksTheFourFields() {
        assertThat(ObjectKey.kvRank(4, 2, 4, 2)).isEqualTo(0x04020402L);
    }

    @Test
    void rejectsBadFields() {
        assertThatThrownBy(() -> new ObjectKey(HASH, "a@b", 0)).hasMessageContaining("model_name must not contain '@'");
        assertThatThrownBy(() -> new ObjectKey(HASH, "m", 0, -1, "")).hasMessageContaining("object_group_id");
        for (String salt : new String[] {"a@b", "a/b", "a\\b", "a\0b"}) {
            assertThatThrownBy(() -> new ObjectKey(HASH, "m", 0, 0, salt)).hasMessageContaining("cache_salt must not contain");
        }
        assertThatThrownBy(() -> new ObjectKey(HASH, "m", 0, 0, "s".repeat(129)))
                .hasMessage("cache_salt exceeds max length 128 (got 129)");
        assertThat(new ObjectKey(HASH, "m", 0, 0, "s".repeat(128)).cacheSalt()).hasSize(128);
    }

    @Test
    void saltTakesPartInEquality() {
        ObjectKey plain = new ObjectKey(HASH, "m", 0);
        assertThat(plain).isEqualTo(new ObjectKey(HASH.clone(), "m", 0)).hasSameHashCodeAs(new ObjectKey(HASH, "m", 0));
        assertThat(plain).isNotEqualTo(new ObjectKey(HASH, "m", 0, 0, "alice"));
        assertThat(new ObjectKey(HASH, "m", 0, 0, "alice")).isNotEqualTo(new ObjectKey(HASH, "m", 0, 0, "bob"));
    }

    @Test
    void distinctHashesGiveDistinctKeys() {
        assertThat(new ObjectKey(new byte[] {1}, "m", 0).wireString())
                .isNotEqualTo(new ObjectKey(new byte[] {2}, "m", 0).wireString());
    }
}
