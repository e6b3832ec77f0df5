package io.kvtier.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** What an adapter written for revision 2, which implements none of revision 3's methods, answers. */
class L2AdapterDefaultsTest {
    /** Implements exactly revision 2's abstract methods. */
    private static final class Revision2Adapter implements L2Adapter {
        Map<String, Object> status = Map.of("is_healthy", true, "type", "old");
        long capacity;

        @Override public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> objects) { return null; }
        @Override public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) { return null; }
        @Override public void unlock(List<ObjectKey> keys) {}
        @Override public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> objects) { return null; }
        @Override public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) { return null; }
        @Override public AdapterUsage usage() { return new AdapterUsage(0, capacity, Map.of()); }
        @Override public Map<String, Object> status() { return status; }
        @Override public void addListener(L2AdapterListener listener) {}
        @Override public void close() {}
    }

    @Test
    void healthIsReadFromStatus() {
        Revision2Adapter adapter = new Revision2Adapter();
        assertThat(adapter.health()).isEqualTo(new Health(true, "", Optional.empty(), Map.of()));
        adapter.status = Map.of("is_healthy", false, "unhealthy_reason", "master gone");
        assertThat(adapter.health().healthy()).isFalse();
        assertThat(adapter.health().reason()).isEqualTo("master gone");
        adapter.status = Map.of("type", "old");
        assertThat(adapter.health().healthy()).as("no is_healthy at all").isFalse();
        assertThat(adapter.health().reason()).isEqualTo("status() says is_healthy = false");
    }

    @Test
    void itCannotListAndEvictsGloballyOnlyWithACapacity() {
        Revision2Adapter adapter = new Revision2Adapter();
        assertThat(adapter.supportsKeyListing()).isFalse();
        assertThatThrownBy(() -> adapter.listKeys(null, 10, null)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(adapter.supportsGlobalEviction()).isFalse();
        adapter.capacity = 1 << 20;
        assertThat(adapter.supportsGlobalEviction()).isTrue();
    }

    @Test
    @SuppressWarnings("deprecation")
    void aRevision2ListenerHearsHealthChangesInItsOwnForm() {
        List<String> heard = new ArrayList<>();
        L2AdapterListener old = new L2AdapterListener() {
            @Override
            public void onHealthChanged(boolean healthy, String reason) {
                heard.add(healthy + " " + reason);
            }
        };
        old.onHealthChanged(new Health(false, "no answer", Optional.empty(), Map.of("master", "no answer")));
        assertThat(heard).containsExactly("false no answer");
    }
}
