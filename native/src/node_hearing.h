// When bytes last came from each storage node this client reads from (node_hearing.cpp, real
// connector only).
#pragma once

#include <cstdint>

namespace kvt_hearing {

// Node indexes below this are heard; the reads of a node past it are judged by their length alone.
constexpr int kNodes = 4096;

// Connections this thread opens while one lives read from `node` (an index): bytes received on
// them are heard from it. Mooncake's TCP transport connects on the thread that submits a transfer.
class ReadingFrom {
  public:
    explicit ReadingFrom(int node);
    ~ReadingFrom();
    ReadingFrom(const ReadingFrom &) = delete;
    ReadingFrom &operator=(const ReadingFrom &) = delete;

  private:
    int before_;
};

// Milliseconds on the steady clock when bytes last came from `node`; 0 if they never did.
int64_t last_heard_ms(int node);

// The connect guard tells of every connect, so that the socket reads from this thread's node.
void connecting(int fd);

}  // namespace kvt_hearing
