// Every connect() of the Mooncake code linked into the connector comes here (-Wl,--wrap=connect;
// the test double links it too, and connects nowhere). wraps.cmake says what it corrects: a
// blocking connect per slice on the caller's thread, bounded only by the kernel's SYN retries, so
// that a silent node holds up every batch with a replica on it.
//
// A blocking connect is bounded (kBound); while an address has left a connect unanswered for
// kUnanswered, or its last connect timed out, further connects to it fail at once with ETIMEDOUT,
// as the kernel's retries would have ended. One connect at a time still tries, so the address is
// cleared once it answers. Whether an address answers is a fact of the network, so that is shared
// by every client of the process, deliberately. Non-blocking connects (master RPCs, asio's) pass.
// A node that accepts connects but sends nothing (its process paused) is held suspect by Java once
// its reads stall; its data address is then refused here on that client's batch threads only
// (BatchThread), so a store placed there fails at once rather than wait out its deadline.
//
// Every connection made here closes abortively (SO_LINGER 0):
// - A master RPC that timed out closes its connection; closed normally, a master partitioned past
//   it hears the request after the heal and carries it out (RealStaleRequestTest).
// - No TIME_WAIT: at one connection per slice a busy client's TIME_WAITs exhaust the ephemeral
//   ports towards a node within a minute (seen on a bridge; loopback reuses TIME_WAIT ports).

#include "nodes.h"
#include "socket_aids.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>

extern "C" int __real_connect(int fd, const struct sockaddr *addr, socklen_t len);

namespace {

using Clock = std::chrono::steady_clock;

// A host that answers completes a connect within a round trip. A lost SYN is sent again after
// 1 s (the kernel's initial retransmission timeout), and again at 3 s: the bound lets one loss pass.
constexpr auto kUnanswered = std::chrono::seconds(1);
constexpr auto kBound = std::chrono::seconds(3);

struct Peer {
    std::multiset<Clock::time_point> connecting;  // start times of the connects in progress
    bool silent = false;                          // its last connect timed out
};

// Never destroyed, as node_hearing's: Mooncake's threads may connect while the process exits.
std::mutex peers_mu;
auto &peers = *new std::map<std::string, Peer>;  // by address and port, as bytes

template <class T>
std::string bytes_of(const T &value) {
    return std::string(reinterpret_cast<const char *>(&value), sizeof value);
}

std::string peer_key(const struct sockaddr *addr, socklen_t len) {
    if (addr->sa_family == AF_INET && len >= sizeof(sockaddr_in)) {
        const auto &in = *reinterpret_cast<const sockaddr_in *>(addr);
        return bytes_of(in.sin_addr) + bytes_of(in.sin_port);
    }
    if (addr->sa_family == AF_INET6 && len >= sizeof(sockaddr_in6)) {
        const auto &in6 = *reinterpret_cast<const sockaddr_in6 *>(addr);
        return bytes_of(in6.sin6_addr) + bytes_of(in6.sin6_port);
    }
    return {};
}

// connect() on a blocking socket, bounded by kBound; errno as connect() sets it, ETIMEDOUT at the bound.
int bounded_connect(int fd, const struct sockaddr *addr, socklen_t len, int flags) {
    if (fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return __real_connect(fd, addr, len);
    int rc = __real_connect(fd, addr, len);
    if (rc < 0 && errno == EINPROGRESS) {
        const auto deadline = Clock::now() + kBound;
        int ready;
        do {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            pollfd pfd{fd, POLLOUT, 0};
            ready = poll(&pfd, 1, static_cast<int>(std::max<int64_t>(left.count(), 0)));
        } while (ready < 0 && errno == EINTR);
        if (ready >= 0) {
            int error = 0;
            socklen_t size = sizeof error;
            if (ready == 0) error = ETIMEDOUT;
            else getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size);
            errno = error;
            rc = error == 0 ? 0 : -1;
        }
    }
    const int saved = errno;
    fcntl(fd, F_SETFL, flags);
    errno = saved;
    return rc;
}

}  // namespace

extern "C" int __wrap_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    const linger abort_on_close{1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
    std::string key = addr == nullptr ? std::string() : peer_key(addr, len);
    kvt_aids::connecting(fd);
    auto *batch = kvt_aids::BatchThread::current;
    if (batch != nullptr && !key.empty() && std::ranges::find(batch->connected, key) == batch->connected.end())
        batch->connected.push_back(key);
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || (flags & O_NONBLOCK) || key.empty()) return __real_connect(fd, addr, len);

    if (batch != nullptr && batch->nodes.avoids_address(key)) {
        errno = ETIMEDOUT;
        return -1;
    }
    std::unique_lock<std::mutex> lock(peers_mu);
    Peer &peer = peers[key];  // std::map: the reference stays valid while unlocked
    const auto now = Clock::now();
    if (!peer.connecting.empty() && (peer.silent || now - *peer.connecting.begin() > kUnanswered)) {
        peer.silent = true;
        errno = ETIMEDOUT;
        return -1;
    }
    const auto mine = peer.connecting.insert(now);
    lock.unlock();
    const int rc = bounded_connect(fd, addr, len, flags);
    const int saved = errno;
    lock.lock();
    peer.connecting.erase(mine);
    // Refused or unreachable is an answer too: only silence makes an address silent.
    peer.silent = rc < 0 && saved == ETIMEDOUT;
    errno = saved;
    return rc;
}
