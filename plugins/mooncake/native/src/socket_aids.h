// What the connector tells the aids over libc's socket calls (wraps.cmake): the connect guard
// (connect_guard.cpp) and node hearing (node_hearing.cpp), which tells when bytes last came from
// each storage node this process reads from.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class Nodes;

namespace kvt_connect {

// While one lives, this thread's connects are a client's: a blocking connect to the data address
// of a node it avoids fails at once with ETIMEDOUT. Other threads, another client's or a probe's,
// connect as they would: what one client holds suspect changes no other's behaviour.
class AvoidingFor {
  public:
    explicit AvoidingFor(Nodes &nodes);
    ~AvoidingFor();
    AvoidingFor(const AvoidingFor &) = delete;
    AvoidingFor &operator=(const AvoidingFor &) = delete;

  private:
    Nodes *before_;
};

}  // namespace kvt_connect

namespace kvt_hearing {

// When bytes last came from one node, on now_ms()'s clock; 0 if they never did.
using Heard = std::shared_ptr<std::atomic<int64_t>>;

// Connections this thread opens while one lives read from one node: bytes received on them stamp
// `heard`. Mooncake's TCP transport connects on the thread that submits a transfer; if it did not,
// the node's reads would be judged by their length alone.
class ReadingFrom {
  public:
    explicit ReadingFrom(Heard heard);
    ~ReadingFrom();
    ReadingFrom(const ReadingFrom &) = delete;
    ReadingFrom &operator=(const ReadingFrom &) = delete;

    // The addresses this thread connected to while it lived, in the connect guard's form.
    const std::vector<std::string> &connected() const { return connected_; }

  private:
    friend void connecting(int fd, const std::string &address);
    const Heard heard_;
    ReadingFrom *const outer_;
    std::vector<std::string> connected_;
};

// The steady clock, in ms, that bytes are heard and reads are timed on.
inline int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The connect guard tells of every connect (to `address`, in its form), so that the socket reads
// from this thread's node.
void connecting(int fd, const std::string &address);

}  // namespace kvt_hearing
