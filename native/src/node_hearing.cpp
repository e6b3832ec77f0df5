// Every recv(), recvmsg() and close() of the Mooncake code linked into the connector comes here
// (-Wl,--wrap, on the connector only), and every connect() through the connect guard.
//
// Why: the connector holds a storage node suspect when a read from it stalls. How long a read
// runs says little on its own: a batch of hundreds of MiB, several in flight, takes seconds on a
// healthy node, and made every node suspect at once (docs/bench). What tells a stalled node from
// a busy one is whether its bytes still come. Each socket a read opens is tagged with its node
// (Mooncake connects on the submitting thread), and each byte received on it stamps the node.
// The same receives write a load's bytes straight into the caller's buffers, and so ask
// src/load_landing.h first.

#include "node_hearing.h"

#include "load_landing.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>

extern "C" ssize_t __real_recv(int fd, void *buf, size_t len, int flags);
extern "C" ssize_t __real_recvmsg(int fd, struct msghdr *msg, int flags);
extern "C" int __real_close(int fd);

namespace {

constexpr int kFds = 1 << 16;  // a socket past it is not heard: its node looks silent sooner
constexpr int kNone = -1;

std::array<std::atomic<int>, kFds> node_of_fd_plus_1{};  // 0: no node
std::array<std::atomic<int64_t>, kvt_hearing::kNodes> heard_ms{};
thread_local int reading_from = kNone;

int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void heard(int fd, ssize_t got) {
    if (got <= 0 || fd < 0 || fd >= kFds) return;
    const int node = node_of_fd_plus_1[fd].load(std::memory_order_relaxed) - 1;
    if (node != kNone) heard_ms[node].store(now_ms(), std::memory_order_relaxed);
}

}  // namespace

namespace kvt_hearing {

ReadingFrom::ReadingFrom(int node) : before_(reading_from) {
    reading_from = node >= 0 && node < kNodes ? node : kNone;
}

ReadingFrom::~ReadingFrom() { reading_from = before_; }

int64_t last_heard_ms(int node) {
    if (node < 0 || node >= kNodes) return 0;
    return heard_ms[node].load(std::memory_order_relaxed);
}

void connecting(int fd) {
    if (fd >= 0 && fd < kFds) node_of_fd_plus_1[fd].store(reading_from + 1, std::memory_order_relaxed);
}

}  // namespace kvt_hearing

// A receive that would write a load's buffers after its call returned or its guard was closed
// fails as on a connection the peer reset, and Mooncake's transfer with it.
extern "C" ssize_t __wrap_recv(int fd, void *buf, size_t len, int flags) {
    ssize_t got = -1;
    if (!kvt_landing::admit(kvt_landing::of(fd), buf, len, [&] { got = __real_recv(fd, buf, len, flags); })) {
        errno = ECONNRESET;
        return -1;
    }
    heard(fd, got);
    return got;
}

extern "C" ssize_t __wrap_recvmsg(int fd, struct msghdr *msg, int flags) {
    ssize_t got = -1;
    const auto call = kvt_landing::of(fd);
    auto receive = [&] { got = __real_recvmsg(fd, msg, flags); };
    // Mooncake's transport receives into one buffer at a time; several are admitted as their span.
    bool admitted = true;
    if (call == nullptr || msg->msg_iovlen == 0) {
        receive();
    } else {
        auto low = reinterpret_cast<uintptr_t>(msg->msg_iov[0].iov_base), high = low;
        for (size_t i = 0; i < msg->msg_iovlen; ++i) {
            const auto start = reinterpret_cast<uintptr_t>(msg->msg_iov[i].iov_base);
            low = std::min(low, start);
            high = std::max(high, start + msg->msg_iov[i].iov_len);
        }
        admitted = kvt_landing::admit(call, reinterpret_cast<const void *>(low), high - low, receive);
    }
    if (!admitted) {
        errno = ECONNRESET;
        return -1;
    }
    heard(fd, got);
    return got;
}

// A number that close() frees may come back from accept() (this client's own segment server),
// which never connects: it must not inherit a node, nor a load's call.
extern "C" int __wrap_close(int fd) {
    if (fd >= 0 && fd < kFds) node_of_fd_plus_1[fd].store(0, std::memory_order_relaxed);
    kvt_landing::closing(fd);
    return __real_close(fd);
}
