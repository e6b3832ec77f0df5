package io.kvtier.testkit;

import io.kvtier.spi.L2AdapterListener;
import io.kvtier.spi.ObjectKey;
import java.util.ArrayList;
import java.util.List;

/** Records the content calls an adapter makes to its listener, in the order they came. */
final class RecordingListener implements L2AdapterListener {
    /** One listener call: {@code sizes} is empty but for stores. */
    record Call(String kind, List<ObjectKey> keys, List<Long> sizes) {}

    private final List<Call> calls = new ArrayList<>();

    @Override
    public synchronized void onKeysStored(List<ObjectKey> keys, List<Long> sizes) {
        calls.add(new Call("stored", List.copyOf(keys), List.copyOf(sizes)));
    }

    @Override
    public synchronized void onKeysAccessed(List<ObjectKey> keys) {
        calls.add(new Call("accessed", List.copyOf(keys), List.of()));
    }

    @Override
    public synchronized void onKeysDeleted(List<ObjectKey> keys) {
        calls.add(new Call("deleted", List.copyOf(keys), List.of()));
    }

    /** The calls so far, and forgets them. */
    synchronized List<Call> take() {
        List<Call> taken = List.copyOf(calls);
        calls.clear();
        return taken;
    }
}
