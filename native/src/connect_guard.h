// What the connector tells the connect guard (connect_guard.cpp).
#pragma once

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
