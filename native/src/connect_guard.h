// What the connector tells the connect guard (connect_guard.cpp, real connector only).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kvt_connect {

// The addresses `host` resolves to, with `port`, in the guard's own form; empty if it does not resolve.
std::vector<std::string> addresses(const std::string &host, uint16_t port);

// While an address is avoided (once more than allowed), a blocking connect to it fails at once
// with ETIMEDOUT, except on a thread that is probing.
void avoid(const std::vector<std::string> &addresses);
void allow(const std::vector<std::string> &addresses);

// Connects of this thread go through to avoided addresses while one lives: a probe must reach a
// suspect node to clear it.
class Probing {
  public:
    Probing();
    ~Probing();
    Probing(const Probing &) = delete;
    Probing &operator=(const Probing &) = delete;
};

}  // namespace kvt_connect
