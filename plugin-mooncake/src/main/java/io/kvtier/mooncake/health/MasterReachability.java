package io.kvtier.mooncake.health;

import io.kvtier.mooncake.config.MasterAddress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks, before a native client is created, that the master (and an HTTP metadata server) accept
 * connections. Mooncake's setup retries a master that is down 20 times, which takes over a minute
 * before it fails; one bounded connect here turns that into one clear error within seconds.
 * With an HA backend the client first asks the backend for the leader, so the backend is what is
 * checked: the Redis server, or the etcd endpoints, of which one answering is enough (etcd's client
 * uses any member it reaches, and a member down in a cluster that keeps its quorum is what HA is
 * for). The leader itself is not checked: finding it means speaking the backend's protocol. A
 * Kubernetes Lease is found through the pod's environment, not the value: nothing is checked.
 */
public final class MasterReachability {
    private static final String KEY = "master_server_addr";

    private MasterReachability() {}

    /** @throws IllegalStateException naming the key, the address and why it cannot be reached */
    public static void check(Map<String, String> setup, Duration timeout) {
        Optional.ofNullable(setup.get(KEY)).map(MasterAddress::parse).ifPresent(master -> checkMaster(master, timeout));
        Optional.ofNullable(setup.get("metadata_server"))
                .flatMap(MasterReachability::httpHostPort)
                .ifPresent(address -> require("metadata_server", address, timeout, "is the metadata server running?"));
    }

    private static void checkMaster(MasterAddress master, Duration timeout) {
        if (master.direct()) {
            require(KEY, master.servers().get(0), timeout, "is mooncake_master running?");
            return;
        }
        switch (master.backend()) {
            case REDIS -> require(KEY + "'s Redis", master.servers().get(0), timeout,
                    "is the Redis server that elects the masters running?");
            case ETCD -> {
                // In turn: endpoints that drop packets add a timeout each, those that refuse nothing.
                List<String> failed = new ArrayList<>();
                for (InetSocketAddress endpoint : master.servers()) {
                    Optional<String> why = unreachable(endpoint, timeout);
                    if (why.isEmpty()) {
                        return;
                    }
                    failed.add(where(endpoint) + " (" + why.get() + ")");
                }
                throw new IllegalStateException("mooncake_store: cannot reach any etcd endpoint of " + KEY + " within "
                        + timeout.toMillis() + " ms each: " + String.join(", ", failed) + "; is etcd running?");
            }
            case K8S -> { }
        }
    }

    private static Optional<InetSocketAddress> httpHostPort(String value) {
        try {
            URI uri = URI.create(value.trim());
            if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
                return Optional.empty();
            }
            return Optional.of(InetSocketAddress.createUnresolved(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Why {@code address} did not accept a connection within {@code timeout}, or empty if it did. */
    private static Optional<String> unreachable(InetSocketAddress address, Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.getHostString(), address.getPort()), (int) timeout.toMillis());
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e instanceof UnknownHostException ? "unknown host"
                    : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    private static void require(String what, InetSocketAddress address, Duration timeout, String hint) {
        unreachable(address, timeout).ifPresent(why -> {
            throw new IllegalStateException("mooncake_store: cannot reach " + what + " " + where(address) + " within "
                    + timeout.toMillis() + " ms (" + why + "); " + hint);
        });
    }

    private static String where(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }
}
