// Every recv(), recvmsg() and close() of the Mooncake code linked into the connector comes here
// (-Wl,--wrap; the double links it too), and every connect() through the connect guard. Each socket
// a read opens is tagged with its node, and each byte received on it stamps the node
// (wraps.cmake says why).

#include "socket_aids.h"

#include <sys/socket.h>
#include <unistd.h>

#include <mutex>
#include <shared_mutex>
#include <unordered_map>

extern "C" ssize_t __real_recv(int fd, void *buf, size_t len, int flags);
extern "C" ssize_t __real_recvmsg(int fd, struct msghdr *msg, int flags);
extern "C" int __real_close(int fd);

namespace {

// Never destroyed: at exit, static destructors run while Mooncake's threads, of a client left in
// place under a call that never returned, may still receive and close.
auto &tags_mu = *new std::shared_mutex;
auto &heard_on = *new std::unordered_map<int, kvt_aids::Heard>;  // by socket

// Stamps the node of socket `fd` when `got` bytes came on it; returns `got`.
ssize_t heard(int fd, ssize_t got) {
    if (got <= 0) return got;
    std::shared_lock lock(tags_mu);
    if (auto it = heard_on.find(fd); it != heard_on.end())
        it->second->store(kvt_aids::now_ms(), std::memory_order_relaxed);
    return got;
}

}  // namespace

void kvt_aids::connecting(int fd) {
    const auto *batch = BatchThread::current;
    std::unique_lock lock(tags_mu);
    if (batch != nullptr && batch->heard != nullptr) heard_on[fd] = batch->heard;
    else heard_on.erase(fd);
}

extern "C" ssize_t __wrap_recv(int fd, void *buf, size_t len, int flags) {
    return heard(fd, __real_recv(fd, buf, len, flags));
}

extern "C" ssize_t __wrap_recvmsg(int fd, struct msghdr *msg, int flags) {
    return heard(fd, __real_recvmsg(fd, msg, flags));
}

// A number that close() frees may come back from accept() (this client's own segment server),
// which never connects: it must not keep a node.
extern "C" int __wrap_close(int fd) {
    {
        std::unique_lock lock(tags_mu);
        heard_on.erase(fd);
    }
    return __real_close(fd);
}
