// What the connector tells the connect guard (connect_guard.cpp, real connector only).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace kvt_connect {

// The addresses one client avoids: its suspect nodes' data addresses. While an address is avoided
// (once more than allowed), a blocking connect to it on a thread of that client (AvoidingFor)
// fails at once with ETIMEDOUT, except while the thread is probing. Another client's connects are
// not refused: what one client holds suspect changes no other's behaviour.
class Avoided {
  public:
    void avoid(const std::vector<std::string> &addresses);
    void allow(const std::vector<std::string> &addresses);
    bool contains(const std::string &address) const;

  private:
    mutable std::mutex mu_;
    std::map<std::string, int> counts_;
};

// While one lives, this thread's connects are a client's, which avoids `avoided`.
class AvoidingFor {
  public:
    explicit AvoidingFor(const Avoided &avoided);
    ~AvoidingFor();
    AvoidingFor(const AvoidingFor &) = delete;
    AvoidingFor &operator=(const AvoidingFor &) = delete;

  private:
    const Avoided *before_;
};

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
