// The storage nodes one client has met, by id (0, 1, ... in the order met), with the transfers
// running from each and whether the client avoids it. Mechanism only: which node to avoid is
// decided in Java (io.kvtier.mooncake.health.StorageNodes) from what kvt_load reports and kvt_node_reads
// shows, and told through kvt_avoid_node.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "socket_aids.h"

class Nodes {
    struct Running {  // a transfer, shown by reads() unless its node was cleared while it ran
        int node;
        int64_t start_ms;
        bool counted = true;
    };

  public:
    int id(const std::string &endpoint) {
        std::lock_guard<std::mutex> lock(mu_);
        auto found = ids_.find(endpoint);
        if (found != ids_.end()) return found->second;
        const int id = static_cast<int>(nodes_.size());
        nodes_.push_back(Node{endpoint, std::make_shared<std::atomic<int64_t>>(0), false, {}});
        ids_.emplace(endpoint, id);
        return id;
    }

    // The endpoint of node `id`; empty for an id never given.
    std::string name(int id) {
        std::lock_guard<std::mutex> lock(mu_);
        return known(id) ? nodes_[id].endpoint : std::string();
    }

    // When bytes last came from node `id` (kvt_aids::BatchThread); null for an id never given.
    kvt_aids::Heard heard(int id) {
        std::lock_guard<std::mutex> lock(mu_);
        return known(id) ? nodes_[id].heard : nullptr;
    }

    // One transfer from node `id`, shown by reads() while it lives.
    class Transfer {
      public:
        Transfer(Nodes &nodes, int id) : nodes_(nodes) {
            std::lock_guard<std::mutex> lock(nodes_.mu_);
            run_ = nodes_.running_.insert(nodes_.running_.end(), Running{id, kvt_aids::now_ms()});
        }
        ~Transfer() {
            std::lock_guard<std::mutex> lock(nodes_.mu_);
            nodes_.running_.erase(run_);
        }
        Transfer(const Transfer &) = delete;
        Transfer &operator=(const Transfer &) = delete;

      private:
        Nodes &nodes_;
        std::list<Running>::iterator run_;
    };

    bool avoided(const std::string &endpoint) {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = ids_.find(endpoint);
        return it != ids_.end() && nodes_[it->second].avoided;
    }

    // False for an id never given. Clearing a node also stops counting the transfers running from
    // it: Mooncake gives up on one stuck since a fault only at its own timeout (30 s over TCP), and
    // counted, it would make the node suspect again at once, long after the node answers.
    bool avoid(int id, bool avoid) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!known(id)) return false;
        nodes_[id].avoided = avoid;
        if (!avoid)
            for (auto &run : running_)
                if (run.node == id) run.counted = false;
        return true;
    }

    // Whether `address` (in the connect guard's form) is a data address of a node avoided.
    bool avoids_address(const std::string &address) {
        std::lock_guard<std::mutex> lock(mu_);
        return std::ranges::any_of(nodes_, [&](const Node &node) {
            return node.avoided && std::ranges::find(node.data_address, address) != node.data_address.end();
        });
    }

    // The node's data address, learned once, from a read that reached it.
    void learn_address(int id, const std::vector<std::string> &address) {
        std::lock_guard<std::mutex> lock(mu_);
        if (known(id) && nodes_[id].data_address.empty()) nodes_[id].data_address = address;
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

    // Per node id, now.
    std::vector<Reads> reads() {
        const int64_t now = kvt_aids::now_ms();
        std::lock_guard<std::mutex> lock(mu_);
        std::vector<Reads> out(nodes_.size());
        for (const auto &r : running_) {
            if (!r.counted) continue;
            auto &reads = out[r.node];
            ++reads.running;
            reads.oldest_ms = std::max(reads.oldest_ms, now - r.start_ms);
        }
        for (size_t id = 0; id < nodes_.size(); ++id) {
            const int64_t heard = nodes_[id].heard->load(std::memory_order_relaxed);
            out[id].quiet_ms = heard == 0 ? -1 : std::max<int64_t>(0, now - heard);
        }
        return out;
    }

  private:
    struct Node {
        std::string endpoint;
        kvt_aids::Heard heard;
        bool avoided = false;
        std::vector<std::string> data_address;  // empty until learned
    };
    bool known(int id) const { return id >= 0 && static_cast<size_t>(id) < nodes_.size(); }

    std::mutex mu_;
    std::vector<Node> nodes_;
    std::unordered_map<std::string, int> ids_;
    std::list<Running> running_;
    size_t rotation_ = 0;
};
