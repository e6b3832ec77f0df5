// Every connect() of the Mooncake code linked into the connector comes here (-Wl,--wrap=connect;
// the test double links it too, and connects nowhere).
//
// Why: Mooncake's TCP transport opens a connection per slice with a blocking connect() on the
// caller's thread, with no timeout but the kernel's SYN retries (about two minutes), and submits a
// batch's slices one after another. A storage node that went silent (partitioned, its link
// down) so holds up every batch that has one replica on it, and not only that replica's transfer:
// the keys behind it in the batch are never even sent. The master keeps placing new replicas on
// the node until its client_ttl, so for those seconds every store batch stalls.
//
// What: a connect is bounded (kBound), and while an address has left a connect unanswered for
// longer than kUnanswered, or its last connect timed out, further connects to it fail at once
// with ETIMEDOUT, as Mooncake's transfer would have failed at the end of the kernel's retries.
// One connect at a time still tries it, so the address is cleared as soon as it answers again.
// Whether an address answers connects is a fact of the network, so that is shared by every client
// of the process, deliberately: another client's connect to a silent address would stall as long.
// Non-blocking connects (the master RPCs, asio's asynchronous ones) are passed through unbounded.
//
// A node that answers connects but not transfers (its process paused: its kernel still accepts)
// is held suspect by Java once its reads stall, and its data address is then avoided here, on that
// client's batch threads only (AvoidingFor): a store the master placed there fails at once, as it
// would on a silent node, rather than wait out its batch's deadline. A probe is let through.
//
// And every connection made here, blocking or not, closes at once, its unsent bytes dropped
// (SO_LINGER 0), for two reasons:
// - Unsent bytes of a closed connection are a request its caller was told had failed. Mooncake's
//   master RPCs (coro_rpc) close their connection when a request times out; closed normally, the
//   kernel goes on sending the request, and a master partitioned past the timeout hears it after
//   the heal and carries it out: a delete then removed the key the caller had stored since
//   (RealStaleRequestTest).
// - No TIME_WAIT: Mooncake closes a data connection once the peer's status frame came, so nothing
//   is left to deliver, and at one connection per slice the TIME_WAITs of a busy client (about
//   1000 a second, each kept 60 s) exhaust the ephemeral ports towards a node within a minute. The
//   kernel then searches the port range at every connect, and throughput falls to a third until
//   they expire: the 60 s oscillation seen on a bridge (not on loopback, where the kernel reuses
//   TIME_WAIT ports by default, tcp_tw_reuse = 2).

#include "connect_guard.h"
#include "node_hearing.h"
#include "nodes.h"

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

std::mutex peers_mu;
std::map<std::string, Peer> peers;  // by address and port, as bytes
thread_local Nodes *avoiding = nullptr;

std::string peer_key(const struct sockaddr *addr, socklen_t len) {
    if (addr->sa_family == AF_INET && len >= sizeof(sockaddr_in)) {
        const auto *in = reinterpret_cast<const sockaddr_in *>(addr);
        return std::string(reinterpret_cast<const char *>(&in->sin_addr), sizeof in->sin_addr) +
               std::string(reinterpret_cast<const char *>(&in->sin_port), sizeof in->sin_port);
    }
    if (addr->sa_family == AF_INET6 && len >= sizeof(sockaddr_in6)) {
        const auto *in6 = reinterpret_cast<const sockaddr_in6 *>(addr);
        return std::string(reinterpret_cast<const char *>(&in6->sin6_addr), sizeof in6->sin6_addr) +
               std::string(reinterpret_cast<const char *>(&in6->sin6_port), sizeof in6->sin6_port);
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
        if (ready == 0) {
            errno = ETIMEDOUT;
        } else if (ready > 0) {
            int error = 0;
            socklen_t size = sizeof error;
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size);
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

namespace kvt_connect {

AvoidingFor::AvoidingFor(Nodes &nodes) : before_(avoiding) { avoiding = &nodes; }
AvoidingFor::~AvoidingFor() { avoiding = before_; }

}  // namespace kvt_connect

extern "C" int __wrap_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    const linger abort_on_close{1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
    std::string key = addr == nullptr ? std::string() : peer_key(addr, len);
    kvt_hearing::connecting(fd, key);
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || (flags & O_NONBLOCK) || key.empty()) return __real_connect(fd, addr, len);

    if (avoiding != nullptr && avoiding->avoids_address(key)) {
        errno = ETIMEDOUT;
        return -1;
    }
    std::multiset<Clock::time_point>::iterator mine;
    Peer *peer;
    {
        std::lock_guard<std::mutex> lock(peers_mu);
        peer = &peers[key];  // std::map: the reference stays valid
        const auto now = Clock::now();
        if (!peer->connecting.empty() &&
            (peer->silent || now - *peer->connecting.begin() > kUnanswered)) {
            peer->silent = true;
            errno = ETIMEDOUT;
            return -1;
        }
        mine = peer->connecting.insert(now);
    }
    const int rc = bounded_connect(fd, addr, len, flags);
    const int saved = errno;
    {
        std::lock_guard<std::mutex> lock(peers_mu);
        peer->connecting.erase(mine);
        // Refused or unreachable is an answer too: only silence makes an address silent.
        peer->silent = rc < 0 && saved == ETIMEDOUT;
    }
    errno = saved;
    return rc;
}
