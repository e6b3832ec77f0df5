package io.kvtier.mooncake.config;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The forms of {@code master_server_addr} that Mooncake's client accepts (at the pinned commit:
 * {@code ParseHABackendSpec} in client_service.cpp). A value without {@code ://} names one master
 * as {@code host:port} (an IPv6 host in brackets). Otherwise the text before the first {@code ://}
 * names an HA backend, which tells the client the leader master:
 * <ul>
 * <li>{@code etcd://} endpoints separated by {@code ;} or {@code ,}, blanks around them and empty
 * ones ignored (the Go wrapper, etcd_wrapper.go), each {@code host:port}, optionally with the
 * {@code http://} or {@code https://} that etcd's client takes;
 * <li>{@code redis://} one Redis server, {@code host} or {@code host:port} (port 6379 by default),
 * optionally followed by one {@code /} (redis_connection.cpp); the password and database come from
 * the environment ({@code MC_REDIS_PASSWORD}, {@code MC_REDIS_DB_INDEX}), not from the value;
 * <li>{@code k8s://} a Lease, {@code namespace/name} or {@code name}.
 * </ul>
 * This is stricter than Mooncake where Mooncake would take a malformed value and fail later (a
 * port with trailing garbage, an etcd endpoint without a port).
 */
public record MasterAddress(Backend backend, List<InetSocketAddress> servers) {
    /** The HA backends Mooncake's client knows, with the Mooncake build option that brings each. */
    public enum Backend {
        ETCD("etcd", "STORE_USE_ETCD"),
        REDIS("redis", "STORE_USE_REDIS"),
        K8S("k8s", "STORE_USE_K8S_LEASE");

        final String scheme;
        final String buildOption;

        Backend(String scheme, String buildOption) {
            this.scheme = scheme;
            this.buildOption = buildOption;
        }

        /** Exact, as Mooncake's ParseHABackendType matches it. */
        static Optional<Backend> named(String scheme) {
            return Arrays.stream(values()).filter(b -> b.scheme.equals(scheme)).findFirst();
        }
    }

    /** The forms, for messages. */
    static final String FORMS = "the mooncake_master's host:port, e.g. \"10.0.0.1:50051\", or an HA backend: "
            + "etcd://host:port;host:port..., redis://host:port or k8s://namespace/lease";
    private static final String SCHEME = "://";
    private static final int REDIS_PORT = 6379;
    /** A host name or IPv4 address, or an IPv6 address in brackets. */
    private static final Pattern HOST = Pattern.compile("[^\\s:/;,@\\[\\]]+|\\[[0-9A-Fa-f:.]+\\]");
    private static final Pattern LEASE = Pattern.compile("[^\\s/]+(/[^\\s/]+)?");

    public MasterAddress {
        servers = List.copyOf(servers);
    }

    /** One master, named as host:port; no HA backend. */
    public boolean direct() {
        return backend == null;
    }

    /**
     * @throws IllegalArgumentException whose message says what {@code value} must be, to follow the
     *     key's name
     */
    public static MasterAddress parse(String value) {
        int scheme = value.indexOf(SCHEME);
        if (scheme < 0) {
            return new MasterAddress(null, List.of(hostAndPort(value).orElseThrow(() -> invalid("must be " + FORMS))));
        }
        String name = value.substring(0, scheme);
        String rest = value.substring(scheme + SCHEME.length());
        Backend backend = Backend.named(name).orElseThrow(() -> invalid("names the HA backend \"" + name
                + "\", which Mooncake's client does not know (etcd, redis, k8s); it must be " + FORMS));
        return switch (backend) {
            case ETCD -> new MasterAddress(backend, etcdEndpoints(rest));
            case REDIS -> new MasterAddress(backend, List.of(redisServer(rest)));
            case K8S -> {
                if (!LEASE.matcher(rest).matches()) {
                    throw invalid("k8s://... must name the master's Lease as namespace/name or name, "
                            + "e.g. \"k8s://default/mooncake-master\"");
                }
                yield new MasterAddress(backend, List.of());
            }
        };
    }

    private static List<InetSocketAddress> etcdEndpoints(String rest) {
        String must = "etcd://... must list the etcd endpoints as host:port, separated by ';' or ',', "
                + "e.g. \"etcd://10.0.0.1:2379;10.0.0.2:2379\"";
        List<InetSocketAddress> endpoints = new ArrayList<>();
        for (String endpoint : rest.split("[;,]")) {
            String trimmed = endpoint.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            String hostPort = trimmed.startsWith("http://") ? trimmed.substring("http://".length())
                    : trimmed.startsWith("https://") ? trimmed.substring("https://".length()) : trimmed;
            endpoints.add(hostAndPort(hostPort).orElseThrow(() -> invalid(must + "; \"" + trimmed + "\" is not one")));
        }
        if (endpoints.isEmpty()) {
            throw invalid(must + "; it lists none");
        }
        return endpoints;
    }

    private static InetSocketAddress redisServer(String rest) {
        String server = rest.endsWith("/") ? rest.substring(0, rest.length() - 1) : rest;
        Optional<InetSocketAddress> parsed = HOST.matcher(server).matches()
                ? Optional.of(InetSocketAddress.createUnresolved(server, REDIS_PORT))
                : hostAndPort(server);
        return parsed.orElseThrow(() -> invalid("redis://... must name one Redis server as host:port (the port "
                + "defaults to 6379), e.g. \"redis://10.0.0.1:6379\"; Mooncake reads its password and database "
                + "from MC_REDIS_PASSWORD and MC_REDIS_DB_INDEX"));
    }

    /** {@code host:port}, port 1 to 65535 in decimal digits, or empty. */
    private static Optional<InetSocketAddress> hostAndPort(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || !HOST.matcher(address.substring(0, colon)).matches()) {
            return Optional.empty();
        }
        String port = address.substring(colon + 1);
        if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
            return Optional.empty();
        }
        return Optional.of(InetSocketAddress.createUnresolved(address.substring(0, colon), Integer.parseInt(port)));
    }

    private static IllegalArgumentException invalid(String problem) {
        return new IllegalArgumentException(problem);
    }
}
