package io.kvtier.mooncake;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Checks, before a native client is created, that the master (and an HTTP metadata server) accept
 * connections. Mooncake's setup retries a master that is down 20 times, which takes over a minute
 * before it fails; one bounded connect here turns that into one clear error within seconds.
 */
final class MasterReachability {
    private MasterReachability() {}

    /** @throws IllegalStateException naming the key, the address and why it cannot be reached */
    static void check(Map<String, String> setup, Duration timeout) {
        Optional.ofNullable(setup.get("master_server_addr"))
                .flatMap(MasterAddress::hostAndPort)
                .ifPresent(address -> connect("master_server_addr", address, timeout, "is mooncake_master running?"));
        Optional.ofNullable(setup.get("metadata_server"))
                .flatMap(MasterReachability::httpHostPort)
                .ifPresent(address -> connect("metadata_server", address, timeout, "is the metadata server running?"));
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

    private static void connect(String key, InetSocketAddress address, Duration timeout, String hint) {
        String where = address.getHostString() + ":" + address.getPort();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.getHostString(), address.getPort()), (int) timeout.toMillis());
        } catch (IOException e) {
            String why = e instanceof UnknownHostException ? "unknown host"
                    : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new IllegalStateException("mooncake_store: cannot reach " + key + " " + where + " within "
                    + timeout.toMillis() + " ms (" + why + "); " + hint);
        }
    }
}
