package io.kvtier.host;

import java.net.InetSocketAddress;
import java.util.Optional;

/** An address to serve HTTP on, given as HOST:PORT (an IPv6 host in brackets), or {@value #OFF} for none. */
final class HttpAddress {
    static final String OFF = "off";

    private HttpAddress() {}

    /** Empty for {@value #OFF}. A host name is resolved here, so that an unknown one is a usage error. */
    static Optional<InetSocketAddress> parse(String value, String option) {
        if (value.equals(OFF)) {
            return Optional.empty();
        }
        int colon = value.lastIndexOf(':');
        String host = colon < 0 ? "" : value.substring(0, colon);
        String port = value.substring(colon + 1);
        boolean bracketed = host.length() > 2 && host.startsWith("[") && host.endsWith("]");
        String name = bracketed ? host.substring(1, host.length() - 1) : host;
        if (name.isEmpty() || (!bracketed && name.contains(":")) || !port.matches("[0-9]{1,5}")) {
            throw new IllegalArgumentException(option + " must be HOST:PORT, e.g. 127.0.0.1:9464 (port 0 = any free port), "
                    + "or " + OFF + ", got '" + value + "'");
        }
        int number = Integer.parseInt(port);
        if (number > 65535) {
            throw new IllegalArgumentException(option + " '" + value + "': the port must be from 0 to 65535");
        }
        InetSocketAddress address = new InetSocketAddress(name, number);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException(option + " '" + value + "': cannot resolve the host '" + name + "'");
        }
        return Optional.of(address);
    }
}
