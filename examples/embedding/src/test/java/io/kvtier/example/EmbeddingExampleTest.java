package io.kvtier.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Runs the manual's embedding example (docs/embedding.md) as it stands, on the module's kvtier.conf. */
class EmbeddingExampleTest {
    @Test
    void theExampleStoresAndLoadsOneObjectThroughAMemoryInstance() {
        assertThat(EmbeddingExample.storeAndLoadOne(Path.of("kvtier.conf")))
                .startsWith("stored and loaded 18 bytes as my-model@00000000@0@")
                .contains("totalBytesUsed=18");
    }
}
