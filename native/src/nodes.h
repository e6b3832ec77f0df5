// The storage nodes one client has met, by id (0, 1, ... in the order met), with the transfers
// running from each and whether the client avoids it. Mechanism only: which node to avoid is
// decided in Java (io.kvtier.mooncake.StorageNodes) from what kvt_load reports and kvt_node_reads
// shows, and told through kvt_avoid_node.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

class Nodes {
  public:
    // What the client's connects do with a node's data address: avoid(addresses, true) while the
    // node is avoided, avoid(addresses, false) once it is not.
    using AvoidAddresses = std::function<void(const std::vector<std::string> &, bool)>;

    explicit Nodes(AvoidAddresses avoid_addresses) : avoid_addresses_(std::move(avoid_addresses)) {}

    ~Nodes() {
        for (const auto &node : nodes_)
            if (node.avoided) avoid_addresses_(node.data_address, false);
    }

    int id(const std::string &endpoint) {
        std::lock_guard<std::mutex> lock(mu_);
        return id_locked(endpoint);
    }

    // The endpoint of node `id`; empty for an id never given.
    std::string name(int id) {
        std::lock_guard<std::mutex> lock(mu_);
        return known(id) ? nodes_[id].endpoint : std::string();
    }

    // The node's process-wide index, by which its bytes are heard (kvt_shim::ReadingFrom).
    int hearing_index(int id) {
        std::lock_guard<std::mutex> lock(mu_);
        return known(id) ? nodes_[id].hearing_index : -1;
    }

    // Registers one running transfer from node `id`, begun at `now_ms`; end() it when it returns.
    uint64_t begin(int id, int64_t now_ms) {
        std::lock_guard<std::mutex> lock(mu_);
        const uint64_t run = next_run_++;
        running_.emplace(run, Running{id, now_ms});
        return run;
    }

    void end(uint64_t run) {
        std::lock_guard<std::mutex> lock(mu_);
        running_.erase(run);
    }

    bool avoided(const std::string &endpoint) {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = ids_.find(endpoint);
        return it != ids_.end() && nodes_[it->second].avoided;
    }

    // False for an id never given.
    bool avoid(int id, bool avoid) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!known(id)) return false;
        auto &node = nodes_[id];
        if (node.avoided != avoid) avoid_addresses_(node.data_address, avoid);
        node.avoided = avoid;
        return true;
    }

    // Whether the node's data address is yet to be learned (once, from a read that reached it).
    bool address_unknown(int id) {
        std::lock_guard<std::mutex> lock(mu_);
        return known(id) && !nodes_[id].address_known;
    }

    void learn_address(int id, std::vector<std::string> address) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!known(id) || nodes_[id].address_known) return;
        auto &node = nodes_[id];
        node.address_known = true;
        node.data_address = std::move(address);
        if (node.avoided) avoid_addresses_(node.data_address, true);
    }

    // While some node is avoided: the others, each once, starting one further on every call so
    // that the first preference does not take every first replica. Empty while none is avoided.
    std::vector<std::string> preferred_while_some_avoided() {
        std::lock_guard<std::mutex> lock(mu_);
        std::vector<std::string> preferred;
        bool some_avoided = false;
        for (const auto &node : nodes_) {
            if (node.avoided) some_avoided = true;
            else preferred.push_back(node.endpoint);
        }
        if (!some_avoided || preferred.empty()) return {};
        std::rotate(preferred.begin(), preferred.begin() + (rotation_++ % preferred.size()), preferred.end());
        return preferred;
    }

    struct Reads {
        int32_t running = 0;     // transfers running from the node now
        int64_t oldest_ms = 0;   // how long the oldest of them has run; 0 when none runs
        int64_t quiet_ms = -1;   // since bytes last came from the node; -1 when none ever did
    };

    // Per node id, at `now_ms`; `last_heard_ms(hearing index)` is 0 for a node never heard.
    std::vector<Reads> reads(int64_t now_ms, const std::function<int64_t(int)> &last_heard_ms) {
        std::lock_guard<std::mutex> lock(mu_);
        std::vector<Reads> out(nodes_.size());
        for (const auto &[run, r] : running_) {
            auto &reads = out[r.node];
            ++reads.running;
            reads.oldest_ms = std::max(reads.oldest_ms, now_ms - r.start_ms);
        }
        for (size_t id = 0; id < nodes_.size(); ++id) {
            const int64_t heard = last_heard_ms(nodes_[id].hearing_index);
            out[id].quiet_ms = heard == 0 ? -1 : std::max<int64_t>(0, now_ms - heard);
        }
        return out;
    }

  private:
    struct Node {
        std::string endpoint;
        int hearing_index = -1;
        bool avoided = false;
        bool address_known = false;
        std::vector<std::string> data_address;  // avoided by the client's connects while avoided
    };
    struct Running {
        int node;
        int64_t start_ms;
    };

    bool known(int id) const { return id >= 0 && static_cast<size_t>(id) < nodes_.size(); }

    int id_locked(const std::string &endpoint) {
        auto found = ids_.find(endpoint);
        if (found != ids_.end()) return found->second;
        const int id = static_cast<int>(nodes_.size());
        Node node;
        node.endpoint = endpoint;
        node.hearing_index = next_hearing_index_.fetch_add(1);
        nodes_.push_back(std::move(node));
        ids_.emplace(endpoint, id);
        return id;
    }

    // Hearing indexes are the process's: bytes are heard by index, whichever client reads them.
    static inline std::atomic<int> next_hearing_index_{0};

    const AvoidAddresses avoid_addresses_;
    std::mutex mu_;
    std::vector<Node> nodes_;
    std::unordered_map<std::string, int> ids_;
    std::map<uint64_t, Running> running_;
    uint64_t next_run_ = 1;
    size_t rotation_ = 0;
};
