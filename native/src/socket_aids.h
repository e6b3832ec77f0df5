// What the connector tells the aids over libc's socket calls (wraps.cmake), the connect guard
// (connect_guard.cpp) and node hearing (node_hearing.cpp): which client's batch a thread runs.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class Nodes;

namespace kvt_aids {

// When bytes last came from one node, on now_ms()'s clock; 0 if they never did.
using Heard = std::shared_ptr<std::atomic<int64_t>>;

// While one lives, this thread submits the transfers of a batch of the client of `nodes`, and
// Mooncake's TCP transport connects on the thread that submits a transfer:
// - A blocking connect to the data address of a node the client avoids fails at once with
//   ETIMEDOUT. Other threads, another client's or a probe's, connect as they would: what one
//   client holds suspect changes no other's behaviour.
// - With `heard`, the transfers read from one node: bytes received on the connections this thread
//   opens stamp it. If Mooncake connected elsewhere, the node's reads would be judged by their
//   length alone.
class BatchThread {
  public:
    explicit BatchThread(Nodes &nodes, Heard heard = nullptr) : nodes(nodes), heard(std::move(heard)) {
        current = this;
    }
    ~BatchThread() { current = outer_; }
    BatchThread(const BatchThread &) = delete;
    BatchThread &operator=(const BatchThread &) = delete;

    Nodes &nodes;
    const Heard heard;
    // The addresses this thread connected to while it lived, in the connect guard's form.
    std::vector<std::string> connected;

    static inline thread_local BatchThread *current = nullptr;

  private:
    BatchThread *const outer_ = current;
};

// The steady clock, in ms, that bytes are heard and reads are timed on.
inline int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The connect guard tells node hearing of every connect: socket `fd` reads from the node of
// BatchThread::current's `heard`, or from none.
void connecting(int fd);

}  // namespace kvt_aids
