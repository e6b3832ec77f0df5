package io.kvtier.hostlib;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpellingTest {
    private static final List<String> MOONCAKE = List.of("local_hostname", "metadata_server", "master_server_addr",
            "protocol", "rdma_devices", "global_segment_size", "local_buffer_size", "replica_num", "nof_replica_num");

    @Test
    void countsInsertionsDeletionsSubstitutionsAndSwaps() {
        assertThat(Spelling.distance("local_hostnme", "local_hostname")).isEqualTo(1);
        assertThat(Spelling.distance("protocl", "protocol")).isEqualTo(1);
        assertThat(Spelling.distance("protocoll", "protocol")).isEqualTo(1);
        assertThat(Spelling.distance("protocal", "protocol")).isEqualTo(1);
        assertThat(Spelling.distance("porotcol", "protocol")).isEqualTo(2);
        assertThat(Spelling.distance("prtoocol", "protocol")).isEqualTo(1);
        assertThat(Spelling.distance("", "abc")).isEqualTo(3);
        assertThat(Spelling.distance("same", "same")).isZero();
    }

    @Test
    void suggestsTheClosestDocumentedKey() {
        assertThat(Spelling.closest("local_hostnme", MOONCAKE)).contains("local_hostname");
        assertThat(Spelling.closest("global_segmnet_size", MOONCAKE)).contains("global_segment_size");
        assertThat(Spelling.closest("replica_nums", MOONCAKE)).contains("replica_num");
        assertThat(Spelling.closest("metadata_sever", MOONCAKE)).contains("metadata_server");
    }

    @Test
    void suggestsNothingForAWordThatIsNoTypoOfAny() {
        assertThat(Spelling.closest("eviction_policy", MOONCAKE)).isEmpty();
        assertThat(Spelling.closest("xyz", MOONCAKE)).isEmpty();
        assertThat(Spelling.closest("ab", List.of("cd"))).isEmpty();
    }

    @Test
    void aTieGoesToTheFirstInAlphabeticalOrder() {
        assertThat(Spelling.closest("bat", List.of("cat", "bar", "hat"))).contains("bar");
        assertThat(Spelling.closest("bat", List.of("hat", "cat"))).contains("cat");
    }
}
