package io.kvtier.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A loopback port that accepts connections and nothing more: the master address of a host
 * process that runs on the test double. kvtier checks that a master accepts connections before it
 * creates a client; the double itself never connects, and keeps one in-memory "cluster" per address.
 */
final class StandInMaster implements AutoCloseable {
    private final ServerSocket socket;

    StandInMaster() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** 127.0.0.1:port */
    String address() {
        return "127.0.0.1:" + socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
