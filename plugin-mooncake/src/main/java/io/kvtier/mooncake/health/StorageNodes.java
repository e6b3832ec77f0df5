package io.kvtier.mooncake.health;

import io.kvtier.mooncake.batch.MooncakeCodes;
import io.kvtier.mooncake.binding.MooncakeClient;
import io.kvtier.mooncake.binding.MooncakeClient.Loaded;
import io.kvtier.mooncake.binding.MooncakeClient.NodeReads;
import io.kvtier.mooncake.binding.MooncakeClient.ProbeAnswer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The storage nodes one instance reads from, each {@link State#UP} or {@link State#SUSPECT}, and
 * the rules that move them; the connector only reports and obeys (kvt_load's per-key nodes,
 * kvt_node_reads, kvt_avoid_node, kvt_probe_node). A node becomes suspect when a read from it
 * failed to transfer, or when a read from it has run past {@code suspect_after_ms} while no bytes
 * came from it for as long ({@link #stalled}); the connector then avoids it: reads take another
 * replica, stores prefer the other nodes, and connects to it fail at once. A probe clears it once
 * a read from it succeeds, or once the master places none of the keys met there and no read met
 * it for {@link Timings#metRecently}: the master has dropped it. Every change goes to the
 * listener. Time is the injected clock's, so the rules are tested without waiting.
 */
public final class StorageNodes {
    public enum State { UP, SUSPECT }

    /** Hears every change of a node's state, on the thread that made it. */
    public interface Listener {
        void changed(String node, State state, String why);
    }

    /** What the model asks of the connector. */
    public interface Connector {
        NodeReads reads();

        String name(int id);

        void avoid(int id, boolean avoid);

        ProbeAnswer probe(int id, String wireKey);

        /** The native client's calls. */
        static Connector over(MooncakeClient client) {
            return new Connector() {
                @Override
                public NodeReads reads() {
                    return client.nodeReads();
                }

                @Override
                public String name(int id) {
                    return client.nodeName(id);
                }

                @Override
                public void avoid(int id, boolean avoid) {
                    client.avoidNode(id, avoid);
                }

                @Override
                public ProbeAnswer probe(int id, String wireKey) {
                    return client.probeNode(id, wireKey);
                }
            };
        }
    }

    /**
     * A node that still sends a little is as good as silent to a read this many times
     * suspect_after_ms old: a lossy link, and a paused node that was once heard for seconds. A busy
     * node's reads stay below it: the longest load batch at 4 MiB x64, 4 in flight across hosts,
     * took 2.2 s with the default 1 s.
     */
    static final int HEARD_READ_BOUND = 3;
    /** A workload that deletes what it read soon leaves a node's last key gone; one of several is more likely still there. */
    static final int PROBE_KEYS = 16;

    private final Connector connector;
    private final long suspectAfterMs;
    private final long metRecentlyNanos;
    private final LongSupplier nanoTime;
    private final Listener listener;
    private final Map<Integer, Node> nodes = new LinkedHashMap<>();
    private final long pauseNanos;
    /** When the last sweep ran, on the model's clock. */
    private long lastSweepNanos;

    public StorageNodes(Connector connector, long suspectAfterMs, Timings timings, LongSupplier nanoTime, Listener listener) {
        this.connector = connector;
        this.suspectAfterMs = suspectAfterMs;
        this.metRecentlyNanos = timings.metRecently().toNanos();
        this.pauseNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(suspectAfterMs), 2 * timings.nodeSweep().toNanos());
        this.nanoTime = nanoTime;
        this.listener = listener;
        this.lastSweepNanos = nanoTime.getAsLong();
    }

    /** Whether a read that has run {@code ranMs}, from a node unheard for {@code quietMs} (-1: never), is stalled. */
    static boolean stalled(long ranMs, long quietMs, long suspectAfterMs) {
        if (ranMs <= suspectAfterMs) {
            return false;
        }
        return ranMs > HEARD_READ_BOUND * suspectAfterMs || quietMs < 0 || quietMs > suspectAfterMs;
    }

    /** Now, on the model's clock: when a load starts, for {@link #loaded}. */
    public long now() {
        return nanoTime.getAsLong();
    }

    /**
     * The outcome of a load that started at {@code startedNanos} ({@link #now}), per key of
     * {@code wireKeys}: the node it was read from and its result, and an avoided node that holds a
     * replica of it, which a probe of that node may read. A failure says nothing of a node cleared
     * since the load started: a read stuck since a fault fails only at Mooncake's own timeout.
     */
    public void loaded(List<String> wireKeys, Loaded loaded, long startedNanos) {
        List<Runnable> changes = new ArrayList<>();
        synchronized (this) {
            long now = nanoTime.getAsLong();
            for (int j = 0; j < wireKeys.size(); ++j) {
                if (loaded.avoided()[j] >= 0) {
                    node(loaded.avoided()[j], now).met(wireKeys.get(j), now);
                }
                if (loaded.nodes()[j] < 0) {
                    continue;
                }
                Node node = node(loaded.nodes()[j], now);
                node.met(wireKeys.get(j), now);
                if (loaded.results()[j] == MooncakeCodes.TRANSFER_FAIL && !node.clearedSince(startedNanos)) {
                    suspect(node, "a read from it failed: TRANSFER_FAIL", changes);
                }
            }
        }
        changes.forEach(Runnable::run);
    }

    /**
     * Marks the nodes whose reads running now are {@link #stalled}, unless this sweep comes
     * {@code suspect_after_ms} or more after the last one (and two {@link Timings#nodeSweep}s, the
     * interval at which they come, besides before each load): this process then did not run for
     * that long (a GC pause, a starved machine), and every read's quiet time includes the pause,
     * however healthy its node. A 1.1 s pause once made both healthy nodes of three suspect at
     * once. The next sweep judges, once the bytes that came meanwhile have been received.
     */
    public void sweep() {
        NodeReads reads = connector.reads();
        List<Runnable> changes = new ArrayList<>();
        synchronized (this) {
            long now = nanoTime.getAsLong();
            boolean afterPause = now - lastSweepNanos >= pauseNanos;
            lastSweepNanos = now;
            if (afterPause) {
                return;
            }
            for (int id = 0; id < reads.running().length; id++) {
                if (reads.running()[id] > 0 && stalled(reads.oldestMs()[id], reads.quietMs()[id], suspectAfterMs)) {
                    suspect(node(id, now), "a read from it has run for " + reads.oldestMs()[id] + " ms, "
                            + (reads.quietMs()[id] < 0 ? "nothing heard from it" : "nothing heard from it for " + reads.quietMs()[id] + " ms")
                            + " (suspect_after_ms = " + suspectAfterMs + ")", changes);
                }
            }
        }
        changes.forEach(Runnable::run);
    }

    /**
     * Probes each suspect node once: reads the latest key met on it that the master still places
     * there. Blocks as long as those reads do; call it from a thread of its own.
     */
    public void probe() {
        for (int id : suspectIds()) {
            List<String> keys;
            synchronized (this) {
                keys = new ArrayList<>(nodes.get(id).keys);
            }
            boolean answered = false;
            boolean placedThere = false;
            for (String key : keys) {
                ProbeAnswer answer = connector.probe(id, key);
                if (answer == ProbeAnswer.NOT_THERE) {
                    continue;
                }
                placedThere = true;
                answered = answer == ProbeAnswer.ANSWERED;
                break;
            }
            List<Runnable> changes = new ArrayList<>();
            synchronized (this) {
                Node node = nodes.get(id);
                if (answered) {
                    clear(node, "a probe read from it succeeded", changes);
                } else if (!placedThere && nanoTime.getAsLong() - node.lastMetNanos >= metRecentlyNanos) {
                    // A workload that deletes what it read leaves the master placing none of these
                    // keys there while it still places new ones; only a node no read met for a while
                    // is gone from the master's placements.
                    clear(node, "the master places none of its keys there any more", changes);
                }
            }
            changes.forEach(Runnable::run);
        }
    }

    /** The suspect nodes' endpoints. */
    public synchronized List<String> suspects() {
        return nodes.values().stream().filter(n -> n.state == State.SUSPECT).map(n -> n.name).toList();
    }

    /** Every node met, by endpoint, with its state. */
    public synchronized Map<String, State> states() {
        Map<String, State> states = new LinkedHashMap<>();
        nodes.values().forEach(n -> states.put(n.name, n.state));
        return states;
    }

    private synchronized List<Integer> suspectIds() {
        return nodes.values().stream().filter(n -> n.state == State.SUSPECT).map(n -> n.id).toList();
    }

    /** Node {@code id}, met for the first time at {@code now} when new. */
    private Node node(int id, long now) {
        return nodes.computeIfAbsent(id, i -> new Node(i, connector.name(i), now));
    }

    private void suspect(Node node, String why, List<Runnable> changes) {
        move(node, State.SUSPECT, why, changes);
    }

    private void clear(Node node, String why, List<Runnable> changes) {
        move(node, State.UP, why, changes);
    }

    /** Moves the node to {@code to}, tells the connector whether to avoid it, and queues the listener's call. */
    private void move(Node node, State to, String why, List<Runnable> changes) {
        if (node.state == to) {
            return;
        }
        node.state = to;
        if (to == State.UP) {
            node.cleared = true;
            node.clearedNanos = nanoTime.getAsLong();
        }
        connector.avoid(node.id, to == State.SUSPECT);
        changes.add(() -> listener.changed(node.name, to, why));
    }

    /** One node: its state, the keys met on it for a probe (the latest first), when a read last met it. */
    private static final class Node {
        final int id;
        final String name;
        State state = State.UP;
        final Deque<String> keys = new ArrayDeque<>();
        long lastMetNanos;
        boolean cleared;
        long clearedNanos;

        Node(int id, String name, long now) {
            this.id = id;
            this.name = name;
            this.lastMetNanos = now;
        }

        boolean clearedSince(long nanos) {
            return cleared && clearedNanos - nanos > 0;
        }

        void met(String key, long now) {
            lastMetNanos = now;
            if (key.equals(keys.peekFirst())) {
                return;
            }
            keys.remove(key);
            keys.addFirst(key);
            if (keys.size() > PROBE_KEYS) {
                keys.removeLast();
            }
        }
    }
}
