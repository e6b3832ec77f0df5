package io.kvtier.it;

import com.codahale.metrics.MetricRegistry;
import io.kvtier.hostlib.L1Arena;
import io.kvtier.hostlib.ConfiguredAdapter;
import io.kvtier.hostlib.Declarations;
import io.kvtier.hostlib.L2AdapterRegistry;
import io.kvtier.spi.AdapterContext;
import io.kvtier.spi.L2Adapter;
import java.util.List;
import java.util.Optional;

/** mooncake_store instances on a real master over TCP on loopback, declared as a user declares them. */
final class RealInstances {
    private RealInstances() {}

    /**
     * The JSON declaration of an instance that contributes {@code segmentBytes} (0: none) to the
     * cluster; {@code extraJson} is an object whose members are added.
     */
    static String declaration(String master, String name, long segmentBytes, String extraJson) {
        return declaration(master, "127.0.0.1", name, segmentBytes, extraJson);
    }

    /** As {@link #declaration(String, String, long, String)}, for a client on {@code hostname} (a cluster host). */
    static String declaration(String master, String hostname, String name, long segmentBytes, String extraJson) {
        String extra = extraJson.substring(1, extraJson.length() - 1).trim();
        return "{\"name\":\"" + name + "\",\"type\":\"mooncake_store\",\"local_hostname\":\"" + hostname + "\","
                + "\"metadata_server\":\"P2PHANDSHAKE\",\"master_server_addr\":\"" + master + "\","
                + "\"protocol\":\"tcp\",\"global_segment_size\":\"" + segmentBytes + "\","
                + "\"local_buffer_size\":\"16777216\"" + (extra.isEmpty() ? "" : "," + extra) + "}";
    }

    /** An instance in this JVM, with {@code arena} as its L1. */
    static L2Adapter create(String master, L1Arena arena, String name, long segmentBytes, String extraJson) {
        return create(master, "127.0.0.1", arena, name, segmentBytes, extraJson);
    }

    /** As {@link #create(String, L1Arena, String, long, String)}, in a JVM on {@code hostname} (a cluster host). */
    static L2Adapter create(String master, String hostname, L1Arena arena, String name, long segmentBytes,
                            String extraJson) {
        L2AdapterRegistry registry = L2AdapterRegistry.load(RealInstances.class.getClassLoader());
        ConfiguredAdapter<?> configured = Declarations.configure(registry, Declarations.resolve(
                Declarations.fromJsonFlags(List.of(declaration(master, hostname, name, segmentBytes, extraJson))))).get(0);
        return configured.create(new AdapterContext(name, Optional.of(arena.desc()), new MetricRegistry(),
                "kvtier.adapter." + name));
    }
}
