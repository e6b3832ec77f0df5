// TEST FIXTURE - in-memory stand-in for the Mooncake API subset used by the connector.
//
// Test knobs, read from the setup ConfigDict (the Java adapter forwards unknown keys, so
// tests configure them like any other Mooncake setting). An unknown `testdouble_*` key or
// a malformed value makes setup_internal fail, so a typo cannot silently disable a knob.
//
//   testdouble_max_mr_size=<bytes>        globalConfig().max_mr_size after this setup
//                                         (default 1 TiB, Mooncake's default; 0 = no limit).
//                                         Every successful setup writes it (the default
//                                         when absent), like a process-global Mooncake.
//   testdouble_fail_setup=True|False      setup_internal fails (case-insensitive).
//   testdouble_fail_register_at=<k>       the k-th register_buffer call on this client
//                                         (0-based, counting every call) returns -1 and
//                                         registers nothing; other calls are unaffected.
//   testdouble_fail_keys=<k1,k2,...>      every per-key op (put/get/exists/remove) on
//                                         these keys yields -1 (INTERNAL_ERROR), no effect.
//   testdouble_fail_batch=<op[,op...]>    op in put|get|exists|remove: that batch call
//                                         returns n+1 results (all -1) and does nothing,
//                                         exercising the connector's count check.
//   testdouble_delay_ms_put|get|exists|remove=<ms>
//                                         sleep once per batch call before doing it.
//   testdouble_fail_once_keys=<k1,k2,...> the first per-key op on each of these keys yields
//                                         TRANSFER_FAIL (-800), a transient code, with no
//                                         effect; later ops on it behave normally.
//   testdouble_no_room_puts=<n>           the first n puts of each key find no room: they yield
//                                         NO_AVAILABLE_HANDLE (-200) with no effect, as in a
//                                         full cluster before its master evicted.
//   testdouble_late_bytes_keys=<k1,...>  the first read of each of these keys from a replica
//                                         on another node than testdouble_local_node yields
//                                         TRANSFER_FAIL, and the failed transfer still delivers:
//                                         at the end of the client's next read call, 0xEE bytes
//                                         land in that first read's buffer (as Mooncake's did on
//                                         a flapping link).
//   testdouble_unchecked_keys=<k1,...>   these keys' objects carry no checksum, as those of
//                                         Mooncake's clients at their defaults, and those a
//                                         master restored from a snapshot, have.
//   testdouble_master_down_while=<path>   while a file exists at <path>, the master is
//                                         "down": every key of every batch gets RPC_FAIL (-900).
//   testdouble_nodes=<n1,n2,...>          the storage nodes (names stand for transfer
//                                         endpoints). The k-th key stored in a store (counting
//                                         every stored key, in batch order) gets replica_num
//                                         replicas: on the existing preferred_segments first
//                                         (none match with P2PHANDSHAKE, as in Mooncake), then
//                                         on nodes k, k+1, ... (mod the node count).
//   testdouble_calls_file=<path>          appends a line to <path> for this client's setup,
//                                         "<client> setup <local_hostname> <global_segment_size>"
//                                         ("-" for a key not set), and for each batch call,
//                                         "<client> <op> <keys>"; <client> numbers the clients
//                                         set up in this process, from 1.
//   testdouble_local_node=<n>             node n stands for this client's own segment, which
//                                         Mooncake reads with a plain memcpy.
//   testdouble_corrupt_node=<n>           every replica on node n was overwritten after its put:
//                                         a read of it lands 0xEE bytes and yields
//                                         CHECKSUM_MISMATCH (-801), as Mooncake's object
//                                         checksum check answers; an object without a
//                                         checksum reads as OK, as Mooncake reads it.
//   testdouble_lease_ms=<n>               the lease a query grants, after which the master may
//                                         free the object's memory (Mooncake's default: 10000).
//   testdouble_silent_nodes_file=<path>   while the file at <path> lists a node (comma or
//                                         newline separated), every transfer to or from that
//                                         node hangs, as on a silently partitioned host; it
//                                         then completes normally once the node is unlisted.
#include "mooncake_testdouble.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <string_view>
#include <thread>
#include <utility>

namespace mooncake {

namespace testdouble {

struct ObjectStore {
    std::mutex mu;
    std::unordered_map<std::string, std::vector<char>> objects;
    struct Put {
        std::vector<char> bytes;         // what the session's writes land in
        std::vector<std::string> nodes;  // its replicas'
    };
    std::unordered_map<std::string, Put> puts;  // put sessions not ended nor revoked
    std::unordered_map<std::string, std::vector<std::string>> replicas;  // key -> its nodes
    uint64_t placed = 0;  // keys stored so far, for placement
};

namespace {

const char *const kOpNames[kOpCount] = {"put", "get", "exists", "remove"};

// One store per master address, like one Mooncake cluster per master. Leaked on purpose:
// a JVM may still call in while static destructors run at exit.
ObjectStore *store_for(const std::string &master) {
    static std::mutex *mu = new std::mutex;
    static auto *stores = new std::unordered_map<std::string, ObjectStore *>;
    std::lock_guard<std::mutex> lock(*mu);
    ObjectStore *&s = (*stores)[master];
    if (s == nullptr) s = new ObjectStore;
    return s;
}

bool parse_u64(const std::string &s, uint64_t &out) {
    if (s.empty()) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

bool parse_bool(std::string s, bool &out) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (s == "true") return out = true, true;
    if (s == "false") return out = false, true;
    return false;
}

std::vector<std::string> split_csv(const std::string &s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= s.size()) {
        size_t end = s.find(',', start);
        if (end == std::string::npos) end = s.size();
        if (end > start) out.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

int op_index(const std::string &name) {
    for (int i = 0; i < kOpCount; ++i)
        if (name == kOpNames[i]) return i;
    return -1;
}

constexpr int kInternal = static_cast<int>(ErrorCode::INTERNAL_ERROR);
constexpr int kInvalid = static_cast<int>(ErrorCode::INVALID_PARAMS);
constexpr int kNotFound = static_cast<int>(ErrorCode::OBJECT_NOT_FOUND);
constexpr int kRpcFail = static_cast<int>(ErrorCode::RPC_FAIL);
constexpr int kTransferFail = static_cast<int>(ErrorCode::TRANSFER_FAIL);
constexpr int kNoRoom = static_cast<int>(ErrorCode::NO_AVAILABLE_HANDLE);

}  // namespace
}  // namespace testdouble

using namespace testdouble;

const std::string &toString(ErrorCode code) noexcept {
    static const std::string ok = "OK", internal = "INTERNAL_ERROR",
                             invalid = "INVALID_PARAMS", not_found = "OBJECT_NOT_FOUND",
                             exists = "OBJECT_ALREADY_EXISTS", lease_expired = "LEASE_EXPIRED",
                             transfer_fail = "TRANSFER_FAIL",
                             checksum_mismatch = "CHECKSUM_MISMATCH", rpc_fail = "RPC_FAIL",
                             no_room = "NO_AVAILABLE_HANDLE",
                             unknown = "UNKNOWN_ERROR";
    switch (code) {
        case ErrorCode::OK: return ok;
        case ErrorCode::NO_AVAILABLE_HANDLE: return no_room;
        case ErrorCode::INTERNAL_ERROR: return internal;
        case ErrorCode::INVALID_PARAMS: return invalid;
        case ErrorCode::OBJECT_NOT_FOUND: return not_found;
        case ErrorCode::OBJECT_ALREADY_EXISTS: return exists;
        case ErrorCode::LEASE_EXPIRED: return lease_expired;
        case ErrorCode::TRANSFER_FAIL: return transfer_fail;
        case ErrorCode::CHECKSUM_MISMATCH: return checksum_mismatch;
        case ErrorCode::RPC_FAIL: return rpc_fail;
    }
    return unknown;
}

GlobalConfig &globalConfig() {
    static GlobalConfig config;
    return config;
}

RealClient::~RealClient() { tearDownAll(); }

tl::expected<void, ErrorCode> RealClient::setup_internal(const ConfigDict &config) {
    std::lock_guard<std::mutex> lock(mu_);
    auto fail = [&](ErrorCode code, std::string why) {
        setup_error_ = "testdouble: " + why;
        return tl::expected<void, ErrorCode>(tl::unexpected<ErrorCode>{code});
    };
    if (set_up_) return fail(ErrorCode::INVALID_PARAMS, "client is already set up");
    setup_error_.clear();

    auto get = [&](const char *key) {
        auto it = config.find(key);
        return it == config.end() ? std::string() : it->second;
    };
    // Mooncake's own required keys (RealClient::setup_internal(ConfigDict)).
    if (get("local_hostname").empty())
        return fail(ErrorCode::INVALID_PARAMS, "missing required config: local_hostname");
    if (get("metadata_server").empty())
        return fail(ErrorCode::INVALID_PARAMS, "missing required config: metadata_server");
    p2p_handshake_ = get("metadata_server") == "P2PHANDSHAKE";

    uint64_t max_mr_size = GlobalConfig{}.max_mr_size;
    bool fail_setup = false;
    for (const auto &[key, value] : config) {
        if (key.rfind("testdouble_", 0) != 0) continue;
        auto bad = [&](const char *expected) {
            return fail(ErrorCode::INVALID_PARAMS, "invalid value '" + value + "' for " +
                                                       key + " (expected " + expected + ")");
        };
        uint64_t u = 0;
        if (key == "testdouble_max_mr_size") {
            if (!parse_u64(value, max_mr_size)) return bad("a byte count");
        } else if (key == "testdouble_fail_setup") {
            if (!parse_bool(value, fail_setup)) return bad("True or False");
        } else if (key == "testdouble_fail_register_at") {
            if (!parse_u64(value, u) || u > INT64_MAX) return bad("a call index >= 0");
            fail_register_at_ = static_cast<int64_t>(u);
        } else if (key == "testdouble_fail_keys") {
            for (auto &k : split_csv(value)) fail_keys_.insert(k);
        } else if (key == "testdouble_fail_batch") {
            for (auto &name : split_csv(value)) {
                int op = op_index(name);
                if (op < 0) return bad("put, get, exists or remove");
                fail_batch_[op] = true;
            }
        } else if (key == "testdouble_fail_once_keys") {
            for (auto &k : split_csv(value)) fail_once_keys_.insert(k);
        } else if (key == "testdouble_no_room_puts") {
            if (!parse_u64(value, no_room_puts_)) return bad("a count");
        } else if (key == "testdouble_late_bytes_keys") {
            for (auto &k : split_csv(value)) late_bytes_keys_.insert(k);
        } else if (key == "testdouble_master_down_while") {
            master_down_while_ = value;
        } else if (key == "testdouble_nodes") {
            nodes_ = split_csv(value);
            if (nodes_.empty()) return bad("a list of node names");
        } else if (key == "testdouble_local_node") {
            local_node_ = value;
        } else if (key == "testdouble_unchecked_keys") {
            for (auto &k : split_csv(value)) unchecked_keys_.insert(k);
        } else if (key == "testdouble_corrupt_node") {
            corrupt_node_ = value;
        } else if (key == "testdouble_lease_ms") {
            if (!parse_u64(value, u) || u > 3600000) return bad("milliseconds");
            lease_ = std::chrono::milliseconds(u);
        } else if (key == "testdouble_silent_nodes_file") {
            silent_nodes_file_ = value;
        } else if (key == "testdouble_calls_file") {
            calls_file_ = value;
        } else if (key.rfind("testdouble_delay_ms_", 0) == 0) {
            int op = op_index(key.substr(std::strlen("testdouble_delay_ms_")));
            if (op < 0) return fail(ErrorCode::INVALID_PARAMS, "unknown test knob " + key);
            if (!parse_u64(value, u) || u > 3600000) return bad("milliseconds");
            delay_ms_[op] = static_cast<int64_t>(u);
        } else {
            return fail(ErrorCode::INVALID_PARAMS, "unknown test knob " + key);
        }
    }
    if (fail_setup)
        return fail(ErrorCode::INTERNAL_ERROR, "setup failed on request (testdouble_fail_setup)");

    std::string master = get("master_server_addr");
    store_ = store_for(master.empty() ? "127.0.0.1:50051" : master);
    globalConfig().max_mr_size = max_mr_size;
    set_up_ = true;
    static std::atomic<int64_t> clients{0};
    serial_ = ++clients;
    auto or_dash = [&](const char *key) { return config.count(key) ? get(key) : std::string("-"); };
    record("setup " + get("local_hostname") + " " + or_dash("global_segment_size"));
    return {};
}

void RealClient::record(const std::string &what) const {
    if (calls_file_.empty()) return;
    static std::mutex file_mu;
    std::lock_guard<std::mutex> lock(file_mu);
    std::ofstream(calls_file_, std::ios::app) << serial_ << " " << what << "\n";
}

std::string RealClient::testdouble_setup_error() const {
    std::lock_guard<std::mutex> lock(mu_);
    return setup_error_;
}

int RealClient::register_buffer(void *buffer, size_t size) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!set_up_ || closed_) return kInvalid;
    if (register_calls_++ == fail_register_at_) return kInternal;
    if (buffer == nullptr || size == 0) return kInvalid;
    // Stricter than Mooncake on purpose: a second registration of one address is a bug
    // in the caller's block bookkeeping, so make it visible.
    if (!registered_.emplace(reinterpret_cast<uintptr_t>(buffer), size).second) return kInvalid;
    return 0;
}

int RealClient::unregister_buffer(void *buffer) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!set_up_ || closed_) return kInvalid;
    return registered_.erase(reinterpret_cast<uintptr_t>(buffer)) == 1 ? 0 : kInvalid;
}

bool RealClient::batch_prologue(Op op, size_t keys) const {
    record(std::string(kOpNames[op]) + " " + std::to_string(keys));
    if (fail_batch_[op]) return true;
    if (delay_ms_[op] > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_[op]));
    return false;
}

int RealClient::key_precheck(const std::string &key) const {
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (!set_up_ || closed_) return kInvalid;  // Mooncake: "Client is not initialized"
        if (fail_once_keys_.erase(key) == 1) return kTransferFail;
    }
    // fail_keys_ is written only during setup, which happened-before set_up_ was seen.
    if (master_down()) return kRpcFail;
    if (fail_keys_.count(key) != 0) return kInternal;
    if (key.empty()) return kInvalid;  // Mooncake's master rejects empty keys
    return 0;
}

std::vector<int> RealClient::batch_put_from(const std::vector<std::string> &keys,
                                            const std::vector<void *> &buffers,
                                            const std::vector<size_t> &sizes,
                                            const ReplicateConfig &config) {
    if (batch_prologue(kPut, keys.size())) return std::vector<int>(keys.size() + 1, kInternal);
    if (buffers.size() != keys.size() || sizes.size() != keys.size())
        return std::vector<int>(keys.size(), kInvalid);
    std::vector<int> out(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
        int rc = buffers[i] == nullptr ? kInvalid : put_precheck(keys[i], sizes[i], config);
        if (rc == 0) {
            std::vector<std::string> placed;
            {
                std::lock_guard<std::mutex> lock(store_->mu);
                placed = place(keys[i], config);
            }
            for (const auto &node : placed) wait_while_silent(node);
            const char *p = static_cast<const char *>(buffers[i]);
            std::vector<char> bytes(p, p + sizes[i]);
            std::lock_guard<std::mutex> lock(store_->mu);
            // An existing key is left untouched and reported as success, as Mooncake
            // maps OBJECT_ALREADY_EXISTS to 0.
            if (store_->objects.try_emplace(keys[i], std::move(bytes)).second && !placed.empty())
                store_->replicas[keys[i]] = std::move(placed);
        }
        out[i] = rc;
    }
    return out;
}

int RealClient::put_precheck(const std::string &key, size_t size, const ReplicateConfig &config) {
    int rc = key_precheck(key);
    if (rc == 0 && (size == 0 || (config.replica_num == 0 && config.nof_replica_num == 0)))
        rc = kInvalid;  // what Mooncake's master answers for these
    if (rc == 0 && no_room_puts_ > 0) {
        std::lock_guard<std::mutex> lock(mu_);
        if (puts_without_room_[key]++ < no_room_puts_) rc = kNoRoom;
    }
    return rc;
}

std::vector<std::string> RealClient::place(const std::string &key, const ReplicateConfig &config) {
    std::vector<std::string> placed;
    if (nodes_.empty() || store_->objects.count(key) != 0) return placed;
    const uint64_t first = store_->placed++;
    const size_t n = std::min(config.replica_num, nodes_.size());
    // Like Mooncake's allocator: preferred segments that exist first, then the rest.
    // With P2PHANDSHAKE a segment is named local_hostname:port, which no replica
    // shows (it shows the transfer engine's endpoint): no preferred name matches.
    if (!p2p_handshake_)
        for (const auto &want : config.preferred_segments)
            if (placed.size() < n && std::find(nodes_.begin(), nodes_.end(), want) != nodes_.end() &&
                std::find(placed.begin(), placed.end(), want) == placed.end())
                placed.push_back(want);
    for (size_t r = 0; placed.size() < n && r < nodes_.size(); ++r) {
        const auto &node = nodes_[(first + r) % nodes_.size()];
        if (std::find(placed.begin(), placed.end(), node) == placed.end()) placed.push_back(node);
    }
    return placed;
}

std::vector<int64_t> RealClient::batch_get_into(const std::vector<std::string> &keys,
                                                const std::vector<void *> &buffers,
                                                const std::vector<size_t> &sizes) {
    if (batch_prologue(kGet, keys.size())) return std::vector<int64_t>(keys.size() + 1, kInternal);
    if (buffers.size() != keys.size() || sizes.size() != keys.size())
        return std::vector<int64_t>(keys.size(), kInvalid);
    std::vector<int64_t> out(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
        int64_t rc = key_precheck(keys[i]);
        if (rc == 0 && buffers[i] == nullptr) rc = kInvalid;
        if (rc == 0) {
            std::lock_guard<std::mutex> lock(store_->mu);
            auto it = store_->objects.find(keys[i]);
            if (it == store_->objects.end()) {
                rc = kNotFound;
            } else if (sizes[i] < it->second.size()) {
                rc = kInvalid;  // Mooncake refuses a buffer smaller than the object
            } else {
                std::memcpy(buffers[i], it->second.data(), it->second.size());
                rc = static_cast<int64_t>(it->second.size());
            }
        }
        out[i] = rc;
    }
    return out;
}

std::vector<int> RealClient::batchIsExist(const std::vector<std::string> &keys) {
    if (batch_prologue(kExists, keys.size())) return std::vector<int>(keys.size() + 1, kInternal);
    std::vector<int> out;
    for (const auto &key : keys) out.push_back(isExist(key));
    return out;
}

int RealClient::isExist(const std::string &key) {
    if (const int rc = key_precheck(key); rc != 0) return rc;
    std::lock_guard<std::mutex> lock(store_->mu);
    return store_->objects.count(key) != 0 ? 1 : 0;
}

std::vector<int> RealClient::batchRemove(const std::vector<std::string> &keys, bool force) {
    (void)force;  // no leases in the double, so force changes nothing
    if (batch_prologue(kRemove, keys.size())) return std::vector<int>(keys.size() + 1, kInternal);
    std::vector<int> out(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
        int rc = key_precheck(keys[i]);
        if (rc == 0) {
            std::lock_guard<std::mutex> lock(store_->mu);
            rc = store_->objects.erase(keys[i]) == 1 ? 0 : kNotFound;
            store_->replicas.erase(keys[i]);
        }
        out[i] = rc;
    }
    return out;
}

namespace {
// A Mooncake error code as the tl::expected of a failed call.
tl::unexpected<ErrorCode> error(int64_t code) { return {static_cast<ErrorCode>(code)}; }
}  // namespace

Environ &Environ::Get() {
    static Environ environ;
    return environ;
}

uint64_t calculate_total_size(const Replica::Descriptor &replica) {
    return replica.memory.buffer_descriptor.size_;
}

int allocateSlices(std::vector<Slice> &slices, const Replica::Descriptor &replica, void *buffer) {
    slices.push_back({buffer, calculate_total_size(replica)});
    return 0;
}

std::vector<tl::expected<QueryResult, ErrorCode>> Client::BatchQuery(const std::vector<std::string> &keys) {
    std::vector<tl::expected<QueryResult, ErrorCode>> out;
    if (owner_.fail_batch_[kGet]) {
        while (out.size() <= keys.size()) out.emplace_back(error(kInternal));
        return out;
    }
    for (const auto &key : keys) {
        if (const int rc = owner_.key_precheck(key); rc != 0) {
            out.emplace_back(error(rc));
            continue;
        }
        std::lock_guard<std::mutex> lock(owner_.store_->mu);
        auto it = owner_.store_->objects.find(key);
        if (it == owner_.store_->objects.end()) {
            out.emplace_back(error(kNotFound));
            continue;
        }
        std::vector<Replica::Descriptor> replicas;
        auto where = owner_.store_->replicas.find(key);
        if (where == owner_.store_->replicas.end())
            replicas.push_back({{{it->second.size(), ""}}, false});  // no node: outside memory
        else
            for (const auto &node : where->second) replicas.push_back({{{it->second.size(), node}}});
        std::optional<uint64_t> checksum;
        if (owner_.unchecked_keys_.count(key) == 0) checksum = std::hash<std::string_view>{}({it->second.data(), it->second.size()});
        out.emplace_back(QueryResult(std::move(replicas), std::chrono::steady_clock::now() + owner_.lease_, checksum));
    }
    return out;
}

std::vector<tl::expected<void, ErrorCode>> Client::BatchGet(
    const std::vector<std::string> &keys, const std::vector<QueryResult> &queries,
    std::unordered_map<std::string, std::vector<Slice>> &slices) {
    std::vector<tl::expected<void, ErrorCode>> out;
    if (owner_.batch_prologue(kGet, keys.size())) {
        out.assign(keys.size() + 1, error(kInternal));
        return out;
    }
    auto &store = *owner_.store_;
    std::vector<RealClient::LateBytes> failed_now;
    for (size_t i = 0; i < keys.size(); ++i) {
        const std::string &node = queries[i].replicas[0].memory.buffer_descriptor.transport_endpoint_;
        void *buffer = slices.at(keys[i])[0].ptr;
        owner_.wait_while_silent(node);
        std::unique_lock<std::mutex> lock(store.mu);
        auto it = store.objects.find(keys[i]);
        // Not from this client's own segment: Mooncake reads it with a memcpy it waits for.
        if (node != owner_.local_node_ && owner_.late_bytes_keys_.erase(keys[i]) == 1) {
            failed_now.push_back({buffer, it == store.objects.end() ? 0 : it->second.size()});
            out.push_back(error(kTransferFail));
            continue;
        }
        auto where = store.replicas.find(keys[i]);
        if (it == store.objects.end() || where == store.replicas.end() ||
            std::find(where->second.begin(), where->second.end(), node) == where->second.end()) {
            out.push_back(error(kNotFound));  // gone since the query, as a Mooncake replica can be
            continue;
        }
        auto bytes = it->second;
        lock.unlock();
        if (node == owner_.corrupt_node_) {
            std::memset(buffer, 0xEE, bytes.size());
            // As Mooncake's: only an object with a checksum is checked.
            if (queries[i].object_checksum.has_value())
                out.push_back(error(static_cast<int64_t>(ErrorCode::CHECKSUM_MISMATCH)));
            else
                out.emplace_back();
            continue;
        }
        std::memcpy(buffer, bytes.data(), bytes.size());
        out.emplace_back();
    }
    std::vector<RealClient::LateBytes> delivered_now;
    {
        std::lock_guard<std::mutex> lock(owner_.mu_);
        delivered_now = std::exchange(owner_.late_bytes_, std::move(failed_now));
    }
    for (const auto &late : delivered_now) std::memset(late.buffer, 0xEE, late.size);
    // As Mooncake's: a read that succeeded after its lease ended may hold another object's bytes.
    const auto now = std::chrono::steady_clock::now();
    for (size_t i = 0; i < out.size() && i < queries.size(); ++i)
        if (out[i] && now >= queries[i].lease_timeout) out[i] = error(static_cast<int>(ErrorCode::LEASE_EXPIRED));
    return out;
}

std::vector<tl::expected<void, ErrorCode>> Client::BatchRemove(const std::vector<std::string> &keys, bool force) {
    std::vector<tl::expected<void, ErrorCode>> out;
    for (const int rc : owner_.batchRemove(keys, force)) {
        if (rc == 0) out.emplace_back();
        else out.emplace_back(error(rc));
    }
    return out;
}

bool Client::CanUseLocalMemcpy(const std::string &endpoint) const {
    return !owner_.local_node_.empty() && endpoint == owner_.local_node_;
}

std::vector<tl::expected<std::vector<Replica::Descriptor>, ErrorCode>> Client::StartBatchPutForSizes(
    const std::vector<std::string> &keys, const std::vector<uint64_t> &sizes, const ReplicateConfig &config) {
    std::vector<tl::expected<std::vector<Replica::Descriptor>, ErrorCode>> out;
    if (owner_.batch_prologue(kPut, keys.size())) {
        while (out.size() <= keys.size()) out.emplace_back(error(kInternal));
        return out;
    }
    for (size_t i = 0; i < keys.size(); ++i) {
        const int rc = i < sizes.size() ? owner_.put_precheck(keys[i], sizes[i], config) : kInvalid;
        if (rc != 0) {
            out.emplace_back(error(rc));
            continue;
        }
        std::lock_guard<std::mutex> lock(owner_.store_->mu);
        if (owner_.store_->objects.count(keys[i]) != 0 || owner_.store_->puts.count(keys[i]) != 0) {
            out.emplace_back(error(static_cast<int>(ErrorCode::OBJECT_ALREADY_EXISTS)));
            continue;
        }
        auto &put = owner_.store_->puts[keys[i]];
        put.bytes.resize(sizes[i]);
        put.nodes = owner_.place(keys[i], config);
        const auto address = reinterpret_cast<uint64_t>(put.bytes.data());
        std::vector<Replica::Descriptor> replicas;
        for (const auto &node : put.nodes) replicas.push_back({{{sizes[i], node, address}}});
        if (replicas.empty()) replicas.push_back({{{sizes[i], "", address}}});  // no node: kept as batch_put_from keeps it
        out.emplace_back(std::move(replicas));
    }
    return out;
}

std::vector<tl::expected<void, ErrorCode>> Client::BatchPutEnd(const std::vector<ObjectMeta> &object_metas) {
    std::vector<tl::expected<void, ErrorCode>> out;
    for (const auto &meta : object_metas) {
        if (owner_.master_down()) {
            out.push_back(error(kRpcFail));
            continue;
        }
        std::lock_guard<std::mutex> lock(owner_.store_->mu);
        auto put = owner_.store_->puts.find(meta.key);
        if (put == owner_.store_->puts.end()) {
            out.push_back(error(kNotFound));
            continue;
        }
        owner_.store_->objects.emplace(meta.key, std::move(put->second.bytes));
        if (!put->second.nodes.empty()) owner_.store_->replicas[meta.key] = std::move(put->second.nodes);
        owner_.store_->puts.erase(put);
        out.emplace_back();
    }
    return out;
}

std::vector<tl::expected<void, ErrorCode>> Client::BatchPutRevoke(const std::vector<std::string> &keys) {
    std::vector<tl::expected<void, ErrorCode>> out;
    for (const auto &key : keys) {
        std::lock_guard<std::mutex> lock(owner_.store_->mu);
        if (owner_.store_->puts.erase(key) == 1)
            out.emplace_back();
        else
            out.push_back(error(kNotFound));
    }
    return out;
}

bool RealClient::silent(const std::string &node) const {
    if (silent_nodes_file_.empty()) return false;
    std::ifstream in(silent_nodes_file_);
    if (!in) return false;
    std::stringstream text;
    text << in.rdbuf();
    std::string listed = text.str();
    std::replace(listed.begin(), listed.end(), '\n', ',');
    for (const auto &name : split_csv(listed))
        if (name == node) return true;
    return false;
}

void RealClient::wait_while_silent(const std::string &node) const {
    while (silent(node)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

bool RealClient::master_down() const {
    return !master_down_while_.empty() && std::filesystem::exists(master_down_while_);
}

int RealClient::tearDownAll() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;  // idempotent, like Mooncake's
    registered_.clear();
    return 0;
}

}  // namespace mooncake
