package io.kvtier.host.replay;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The prefix hits an exact LRU cache of whole blocks would give: what an adapter that evicts the
 * least recently used block should reproduce. Each request's hit is the longest run of its leading
 * blocks already cached; then every block of the request is used, the cached ones moving to the
 * most recent end and the others admitted, evicting the least recently used beyond the capacity.
 */
final class LruOracle {
    /** Access order: iteration starts at the least recently used block. */
    private final LinkedHashMap<Integer, Boolean> cached;

    /** @param capacityBlocks the most blocks held; 0 for an unbounded cache */
    LruOracle(long capacityBlocks) {
        cached = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, Boolean> eldest) {
                return capacityBlocks > 0 && size() > capacityBlocks;
            }
        };
    }

    /** The request's prefix hit, in blocks, before its blocks are used. */
    int access(int[] blocks) {
        int hit = 0;
        while (hit < blocks.length && cached.containsKey(blocks[hit])) {
            hit++;
        }
        for (int block : blocks) {
            cached.put(block, Boolean.TRUE);
        }
        return hit;
    }

    /** Each request's prefix hit, in blocks, replaying {@code requests} in order from an empty cache. */
    static int[] hits(List<Trace.Request> requests, long capacityBlocks) {
        LruOracle oracle = new LruOracle(capacityBlocks);
        return requests.stream().mapToInt(r -> oracle.access(r.blocks())).toArray();
    }
}
