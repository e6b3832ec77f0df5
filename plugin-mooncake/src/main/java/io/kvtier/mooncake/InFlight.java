package io.kvtier.mooncake;

import io.kvtier.mooncake.lanes.LaneTask;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The batches submitted and not complete. Released after the lanes drained, it fails those whose
 * native call outlived the drain, which would otherwise never complete.
 */
final class InFlight implements AutoCloseable {
    private final String name;
    private final Set<LaneTask> tasks = ConcurrentHashMap.newKeySet();

    InFlight(String name) {
        this.name = name;
    }

    void add(LaneTask task) {
        tasks.add(task);
    }

    void remove(LaneTask task) {
        tasks.remove(task);
    }

    int size() {
        return tasks.size();
    }

    @Override
    public void close() {
        tasks.forEach(task -> task.fail(MooncakeStoreAdapter.closedError(name)));
    }
}
