package io.kvtier.mooncake.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Replica counts applied to every write ({@code batch_put_from}'s ReplicateConfig), never to
 * {@code setup_internal}, which would silently ignore them (LMCache issue #4952).
 *
 * @param replicaNum    memory replicas, or {@link #UNSET} for Mooncake's default (1)
 * @param nofReplicaNum NoF replicas, or {@link #UNSET} for Mooncake's default (0)
 */
public record ReplicateConfig(int replicaNum, int nofReplicaNum) {
    /** What the C ABI takes as "keep Mooncake's default". */
    public static final int UNSET = -1;
    public static final ReplicateConfig DEFAULTS = new ReplicateConfig(UNSET, UNSET);

    /** LMCache's {@code replicate_config} view: only the counts that were set, as decimal strings. */
    Map<String, String> view() {
        Map<String, String> view = new LinkedHashMap<>();
        if (replicaNum != UNSET) {
            view.put("replica_num", Integer.toString(replicaNum));
        }
        if (nofReplicaNum != UNSET) {
            view.put("nof_replica_num", Integer.toString(nofReplicaNum));
        }
        return view;
    }
}
