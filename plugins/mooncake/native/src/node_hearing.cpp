// Every recv(), recvmsg() and close() of the Mooncake code linked into the connector comes here
// (-Wl,--wrap; the double links it too), and every connect() through the connect guard.
//
// Why: how long a read runs says little on its own (hundreds of MiB in flight take seconds on a
// healthy node, and made every node suspect at once); whether its node's bytes still come does.
// Each socket a read opens is tagged with its node (Mooncake connects on the submitting thread),
// and each byte received on it stamps the node.

#include "socket_aids.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>

extern "C" ssize_t __real_recv(int fd, void *buf, size_t len, int flags);
extern "C" ssize_t __real_recvmsg(int fd, struct msghdr *msg, int flags);
extern "C" int __real_close(int fd);

namespace {

// A table over every non-negative int, in chunks allocated at first write and never freed, so
// that a reader needs no lock: socket numbers and node indexes have no bound of their own.
template <class T>
class Table {
   public:
    // The entry at i, or null when no write reached its chunk yet.
    std::atomic<T> *find(uint32_t i) const {
        Chunk *chunk = chunks_[i >> kChunkBits].load(std::memory_order_acquire);
        return chunk == nullptr ? nullptr : &chunk->at[i & kChunkMask];
    }
    std::atomic<T> &at(uint32_t i) {
        auto &slot = chunks_[i >> kChunkBits];
        Chunk *chunk = slot.load(std::memory_order_acquire);
        if (chunk == nullptr) {
            auto fresh = std::make_unique<Chunk>();
            if (slot.compare_exchange_strong(chunk, fresh.get(), std::memory_order_acq_rel))
                chunk = fresh.release();
        }
        return chunk->at[i & kChunkMask];
    }

   private:
    static constexpr int kChunkBits = 16;
    static constexpr uint32_t kChunkMask = (1u << kChunkBits) - 1;
    struct Chunk {
        std::atomic<T> at[1u << kChunkBits] = {};
    };
    std::atomic<Chunk *> chunks_[1u << (31 - kChunkBits)] = {};
};

Table<int> node_of_fd_plus_1;  // 0: no node
Table<int64_t> heard_ms;
thread_local kvt_hearing::ReadingFrom *reading = nullptr;

// Stamps the node of socket `fd` when `got` bytes came on it; returns `got`.
ssize_t heard(int fd, ssize_t got) {
    if (got <= 0 || fd < 0) return got;
    const auto *entry = node_of_fd_plus_1.find(static_cast<uint32_t>(fd));
    const int node = entry == nullptr ? -1 : entry->load(std::memory_order_relaxed) - 1;
    if (node >= 0) heard_ms.at(static_cast<uint32_t>(node)).store(kvt_hearing::now_ms(), std::memory_order_relaxed);
    return got;
}

}  // namespace

namespace kvt_hearing {

ReadingFrom::ReadingFrom(int node) : node_(std::max(node, -1)), outer_(reading) { reading = this; }
ReadingFrom::~ReadingFrom() { reading = outer_; }

int64_t last_heard_ms(int node) {
    if (node < 0) return 0;
    const auto *entry = heard_ms.find(static_cast<uint32_t>(node));
    return entry == nullptr ? 0 : entry->load(std::memory_order_relaxed);
}

void connecting(int fd, const std::string &address) {
    if (fd < 0) return;
    const int node = reading == nullptr ? -1 : reading->node_;
    if (node >= 0 || node_of_fd_plus_1.find(static_cast<uint32_t>(fd)) != nullptr)
        node_of_fd_plus_1.at(static_cast<uint32_t>(fd)).store(node + 1, std::memory_order_relaxed);
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
// which never connects: it must not inherit a node.
extern "C" int __wrap_close(int fd) {
    if (fd >= 0)
        if (auto *entry = node_of_fd_plus_1.find(static_cast<uint32_t>(fd))) entry->store(0, std::memory_order_relaxed);
    return __real_close(fd);
}
