// Every recv(), recvmsg() and close() of the Mooncake code linked into the connector comes here
// (-Wl,--wrap; the double links it too), and every connect() through the connect guard. Each socket
// a read opens is tagged with its node, and each byte received on it stamps the node
// (wraps.cmake says why).

#include "socket_aids.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

extern "C" ssize_t __real_recv(int fd, void *buf, size_t len, int flags);
extern "C" ssize_t __real_recvmsg(int fd, struct msghdr *msg, int flags);
extern "C" int __real_close(int fd);

namespace {

std::shared_mutex tags_mu;
std::unordered_map<int, kvt_hearing::Heard> heard_on;  // by socket
thread_local kvt_hearing::ReadingFrom *reading = nullptr;

// Stamps the node of socket `fd` when `got` bytes came on it; returns `got`.
ssize_t heard(int fd, ssize_t got) {
    if (got <= 0) return got;
    std::shared_lock lock(tags_mu);
    if (auto it = heard_on.find(fd); it != heard_on.end())
        it->second->store(kvt_hearing::now_ms(), std::memory_order_relaxed);
    return got;
}

}  // namespace

namespace kvt_hearing {

ReadingFrom::ReadingFrom(Heard heard) : heard_(std::move(heard)), outer_(reading) { reading = this; }
ReadingFrom::~ReadingFrom() { reading = outer_; }

void connecting(int fd, const std::string &address) {
    {
        std::unique_lock lock(tags_mu);
        if (reading != nullptr && reading->heard_ != nullptr) heard_on[fd] = reading->heard_;
        else heard_on.erase(fd);
    }
    if (reading != nullptr && !address.empty() &&
        std::find(reading->connected_.begin(), reading->connected_.end(), address) == reading->connected_.end())
        reading->connected_.push_back(address);
}

}  // namespace kvt_hearing

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
