package io.kvtier.mooncake;

import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The forms of {@code master_server_addr}: one master as {@code host:port} (an IPv6 host in
 * brackets), or Mooncake's highly available mode, {@code etcd://...}, which names no master itself.
 */
final class MasterAddress {
    static final String ETCD_PREFIX = "etcd://";
    private static final Pattern HOST = Pattern.compile("[^\\s:]+|\\[[0-9A-Fa-f:.]+\\]");

    private MasterAddress() {}

    static boolean isEtcd(String address) {
        return address.startsWith(ETCD_PREFIX) && address.length() > ETCD_PREFIX.length();
    }

    /** The one master that {@code address} names, or empty when it is not {@code host:port}. */
    static Optional<InetSocketAddress> hostAndPort(String address) {
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
}
