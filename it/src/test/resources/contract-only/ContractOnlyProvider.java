package example.contractonly;

import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.AdapterSettings;
import io.kvtier.spi.AdapterUsage;
import io.kvtier.spi.BatchResult;
import io.kvtier.spi.KeyResult;
import io.kvtier.spi.L1Slice;
import io.kvtier.spi.L2Adapter;
import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.L2AdapterProvider;
import io.kvtier.spi.ObjectKey;
import io.kvtier.spi.SpiVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A plugin compiled against kvtier-spi alone, or against kvtier-spi and one bundled library whose
 * version {@code describe} reports (the test compiles it with nothing else on the class path). It uses
 * only revision 2's API: SpiRevision2PluginTest also compiles it against that contract.
 */
public final class ContractOnlyProvider implements L2AdapterProvider<String> {
    @Override
    public String type() {
        return "TYPE_NAME";
    }

    @Override
    public int spiVersion() {
        return SPI_VERSION_EXPRESSION;
    }

    @Override
    public String parseConfig(AdapterSettings settings) {
        return "ok";
    }

    @Override
    public Map<String, Object> describe(String config) {
        return Map.of("library", LIBRARY_VERSION_EXPRESSION);
    }

    @Override
    public L2Adapter create(String config, AdapterContext context) {
        return new HeapAdapter();
    }


    static final class HeapAdapter implements L2Adapter {
        private final Map<ObjectKey, byte[]> objects = new ConcurrentHashMap<>();

        @Override
        public CompletableFuture<BatchResult> store(List<ObjectKey> keys, List<L1Slice> slices) {
            long newBytes = 0;
            for (int i = 0; i < keys.size(); i++) {
                byte[] copy = new byte[slices.get(i).length()];
                slices.get(i).buffer().duplicate().clear().get(copy);
                if (objects.putIfAbsent(keys.get(i), copy) == null) {
                    newBytes += copy.length;
                }
            }
            return CompletableFuture.completedFuture(BatchResult.allOk(keys.size(), newBytes));
        }

        @Override
        public CompletableFuture<BatchResult> lookupAndLock(List<ObjectKey> keys) {
            return CompletableFuture.completedFuture(results(keys));
        }

        @Override
        public void unlock(List<ObjectKey> keys) {}

        @Override
        public CompletableFuture<BatchResult> load(List<ObjectKey> keys, List<L1Slice> slices) {
            for (int i = 0; i < keys.size(); i++) {
                byte[] object = objects.get(keys.get(i));
                if (object != null) {
                    slices.get(i).buffer().duplicate().clear().put(object);
                }
            }
            return CompletableFuture.completedFuture(results(keys));
        }

        @Override
        public CompletableFuture<BatchResult> delete(List<ObjectKey> keys) {
            List<KeyResult> results = new ArrayList<>();
            for (ObjectKey key : keys) {
                results.add(objects.remove(key) != null ? KeyResult.OK : KeyResult.MISSING);
            }
            return CompletableFuture.completedFuture(new BatchResult(results, 0, ""));
        }

        private BatchResult results(List<ObjectKey> keys) {
            List<KeyResult> results = new ArrayList<>();
            for (ObjectKey key : keys) {
                results.add(objects.containsKey(key) ? KeyResult.OK : KeyResult.MISSING);
            }
            return new BatchResult(results, 0, "");
        }

        @Override
        public AdapterUsage usage() {
            return new AdapterUsage(0, 0, Map.of());
        }

        @Override
        public Map<String, Object> status() {
            return Map.of("is_healthy", true, "type", "TYPE_NAME");
        }

        @Override
        public void addListener(L2AdapterListener listener) {}

        @Override
        public void close() {
            objects.clear();
        }
    }
}
