// TEST FIXTURE - not Mooncake.
//
// An in-memory stand-in for exactly the subset of Mooncake's C++ API that
// the connector sources use (mooncake::RealClient and its client_, QueryResult, Replica,
// ReplicateConfig, ErrorCode, ConfigDict, globalConfig(), Environ, tl::expected). Names and
// signatures follow Mooncake (mooncake-store/include/real_client.h, client_service.h,
// replica.h, types.h; mooncake-transfer-engine/include/config.h) so the same connector sources
// compile against either. It is linked only into libkvtier_mooncake_testdouble.so, which lets the Java
// tests drive Java -> JNR-FFI -> C ABI -> connector without a Mooncake cluster.
//
// Semantics mirrored from Mooncake: setup requires local_hostname and metadata_server;
// objects are shared by every client configured with the same master_server_addr; put
// of an existing key succeeds and leaves the object alone; get_into returns the object
// size, INVALID_PARAMS for a too-small buffer, OBJECT_NOT_FOUND for a missing key.
// Test knobs (all `testdouble_*` setup keys) are documented in mooncake_testdouble.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>


namespace mooncake {

// Subset of mooncake-store/include/types.h ErrorCode (same values).
enum class ErrorCode : int32_t {
    OK = 0,
    INTERNAL_ERROR = -1,
    NO_AVAILABLE_HANDLE = -200,
    INVALID_PARAMS = -600,
    OBJECT_NOT_FOUND = -704,
    OBJECT_ALREADY_EXISTS = -705,
    LEASE_EXPIRED = -707,
    TRANSFER_FAIL = -800,
    CHECKSUM_MISMATCH = -801,
    RPC_FAIL = -900,
};

const std::string &toString(ErrorCode code) noexcept;

using ConfigDict = std::unordered_map<std::string, std::string>;

// Subset of mooncake-store/include/replica.h ReplicateConfig.
struct ReplicateConfig {
    size_t replica_num{1};
    size_t nof_replica_num{0};
    std::vector<std::string> preferred_segments{};  // tried first, in order
};

// Subset of mooncake-transfer-engine/include/config.h GlobalConfig (default 1 TiB).
struct GlobalConfig {
    uint64_t max_mr_size = 0x10000000000;
};
GlobalConfig &globalConfig();

}  // namespace mooncake

// Stand-in for tl::expected (Mooncake's tl-expected): what the connector reads of it.
namespace tl {
template <class E>
struct unexpected {
    E value;
};
template <class T, class E>
class expected {
   public:
    expected(T value) : value_(std::move(value)) {}
    expected(unexpected<E> e) : error_(e.value) {}
    explicit operator bool() const { return value_.has_value(); }
    const T *operator->() const { return &*value_; }
    const T &operator*() const { return *value_; }
    E error() const { return error_; }

   private:
    std::optional<T> value_;
    E error_{};
};
template <class E>
class expected<void, E> {
   public:
    expected() = default;
    expected(unexpected<E> e) : ok_(false), error_(e.value) {}
    explicit operator bool() const { return ok_; }
    E error() const { return error_; }

   private:
    bool ok_ = true;
    E error_{};
};
}  // namespace tl
namespace mooncake {

// Subsets of mooncake-store/include/types.h and replica.h: one replica's place, in memory on
// the node named by its transport endpoint, or elsewhere (disk), which only batch_get_into reads.
struct Slice {
    void *ptr{nullptr};
    size_t size{0};
};
enum class ReplicaStatus { PROCESSING, COMPLETE };
struct BufferDescriptor {
    uint64_t size_ = 0;
    std::string transport_endpoint_;
    uint64_t buffer_address_ = 0;  // set in a put session's replicas only
};
struct MemoryDescriptor {
    BufferDescriptor buffer_descriptor;
};
struct Replica {
    struct Descriptor {
        MemoryDescriptor memory;
        bool in_memory = true;
        ReplicaStatus status = ReplicaStatus::COMPLETE;
        bool is_memory_replica() const noexcept { return in_memory; }
        const MemoryDescriptor &get_memory_descriptor() const { return memory; }
    };
};

// mooncake-store/include/client_buffer.h: the double's objects are one slice each.
uint64_t calculate_total_size(const Replica::Descriptor &replica);
int allocateSlices(std::vector<Slice> &slices, const Replica::Descriptor &replica, void *buffer);

// mooncake-store/include/client_service.h QueryResult.
class QueryResult {
   public:
    const std::vector<Replica::Descriptor> replicas;
    const std::chrono::steady_clock::time_point lease_timeout;
    const std::optional<uint64_t> object_checksum;
    QueryResult(std::vector<Replica::Descriptor> &&replicas_param,
                std::chrono::steady_clock::time_point lease_timeout_param,
                std::optional<uint64_t> object_checksum_param = std::nullopt)
        : replicas(std::move(replicas_param)),
          lease_timeout(lease_timeout_param),
          object_checksum(object_checksum_param) {}
};

// mooncake-store/include/types.h ObjectMeta: what ends a put.
struct ObjectMeta {
    std::string key;
    std::optional<uint64_t> object_checksum;
};

// mooncake-common Environ: the double always checks objects.
class Environ {
   public:
    static Environ &Get();
    bool GetStoreChecksumEnabled() const { return true; }
};

// glog's LOG, whose text the double drops.
struct DroppedLog {
    template <class T>
    DroppedLog &operator<<(const T &) { return *this; }
};
#define LOG(severity) ::mooncake::DroppedLog()

namespace testdouble {
struct ObjectStore;  // one per master_server_addr, process-global
enum Op { kPut = 0, kGet, kExists, kRemove, kOpCount };
}  // namespace testdouble

class RealClient;

// The subset of mooncake-store/include/client_service.h Client that the connector reads through
// RealClient::client_, served by the RealClient that owns it.
class Client {
   public:
    explicit Client(RealClient &owner) : owner_(owner) {}
    std::vector<tl::expected<QueryResult, ErrorCode>> BatchQuery(const std::vector<std::string> &keys);
    // Reads each key from the one replica its query names into its slice (0xEE bytes and
    // CHECKSUM_MISMATCH from testdouble_corrupt_node).
    std::vector<tl::expected<void, ErrorCode>> BatchGet(
        const std::vector<std::string> &keys, const std::vector<QueryResult> &queries,
        std::unordered_map<std::string, std::vector<Slice>> &slices);
    std::vector<tl::expected<void, ErrorCode>> BatchRemove(const std::vector<std::string> &keys,
                                                           bool force = false);
    // Whether `endpoint` is testdouble_local_node.
    bool CanUseLocalMemcpy(const std::string &endpoint) const;

    // A put in steps, as Mooncake's Client has them for RealClient's put sessions: the start
    // places each key's replicas as batch_put_from does (its knobs and its call record, "put"), in
    // memory of the double's own that each replica's buffer_address_ names (one buffer shared by a
    // key's replicas), which the caller writes; the end makes it the object (its checksum is the
    // double's, as always), or the revoke drops it. A key that exists, or is being put, is
    // OBJECT_ALREADY_EXISTS at the start.
    std::vector<tl::expected<std::vector<Replica::Descriptor>, ErrorCode>> StartBatchPutForSizes(
        const std::vector<std::string> &keys, const std::vector<uint64_t> &sizes,
        const ReplicateConfig &config);
    std::vector<tl::expected<void, ErrorCode>> BatchPutEnd(const std::vector<ObjectMeta> &object_metas);
    std::vector<tl::expected<void, ErrorCode>> BatchPutRevoke(const std::vector<std::string> &keys);

   private:
    RealClient &owner_;
};

class RealClient {
   public:
    RealClient() = default;
    ~RealClient();

    tl::expected<void, ErrorCode> setup_internal(const ConfigDict &config);

    int register_buffer(void *buffer, size_t size);
    int unregister_buffer(void *buffer);

    std::vector<int> batch_put_from(const std::vector<std::string> &keys,
                                    const std::vector<void *> &buffers,
                                    const std::vector<size_t> &sizes,
                                    const ReplicateConfig &config = ReplicateConfig{});
    std::vector<int64_t> batch_get_into(const std::vector<std::string> &keys,
                                        const std::vector<void *> &buffers,
                                        const std::vector<size_t> &sizes);
    std::vector<int> batchIsExist(const std::vector<std::string> &keys);
    int isExist(const std::string &key);  // no batch knob applies
    std::vector<int> batchRemove(const std::vector<std::string> &keys, bool force = false);

    int tearDownAll();

    // Not in Mooncake: why the last setup_internal failed (Mooncake only logs it).
    std::string testdouble_setup_error() const;

    // PyClient's public member, through which the connector queries and reads replicas.
    std::shared_ptr<Client> client_ = std::make_shared<Client>(*this);

   private:
    friend class Client;

    // Common prologue of every batch call: applies testdouble_fail_batch (returns true
    // when the caller must return a wrong-sized result) and testdouble_delay_ms_*.
    bool batch_prologue(testdouble::Op op, size_t keys) const;
    // Appends "<serial_> <what>" to the testdouble_calls_file, if one was set.
    void record(const std::string &what) const;
    // Per-key precheck: 0 when the op may proceed, else the per-key error code.
    int key_precheck(const std::string &key) const;
    // A put's precheck beyond key_precheck's: its size, its config and testdouble_no_room_puts.
    int put_precheck(const std::string &key, size_t size, const ReplicateConfig &config);
    // The nodes of a new key's replicas; none without testdouble_nodes, or when the key exists.
    // Under store_->mu.
    std::vector<std::string> place(const std::string &key, const ReplicateConfig &config);
    bool master_down() const;
    // Blocks while `node` is listed in the testdouble_silent_nodes_file.
    void wait_while_silent(const std::string &node) const;
    bool silent(const std::string &node) const;

    mutable std::mutex mu_;  // guards the fields below except where noted
    bool set_up_ = false;
    bool closed_ = false;
    std::string setup_error_;
    testdouble::ObjectStore *store_ = nullptr;  // never freed (process lifetime)

    int64_t fail_register_at_ = -1;
    int64_t register_calls_ = 0;
    std::unordered_set<std::string> fail_keys_;
    bool fail_batch_[testdouble::kOpCount] = {};
    int64_t delay_ms_[testdouble::kOpCount] = {};
    std::map<uintptr_t, size_t> registered_;
    std::string master_down_while_;  // written only during setup
    std::vector<std::string> nodes_;  // written only during setup
    std::string silent_nodes_file_;   // written only during setup
    bool p2p_handshake_ = false;      // written only during setup
    std::string local_node_;          // written only during setup
    std::string corrupt_node_;        // written only during setup
    std::chrono::milliseconds lease_{10000};  // written only during setup
    std::set<std::string> unchecked_keys_;  // written only during setup
    std::string calls_file_;          // written only during setup
    int64_t serial_ = 0;              // written only during setup
    mutable std::unordered_set<std::string> fail_once_keys_;
    uint64_t no_room_puts_ = 0;  // written only during setup
    std::unordered_map<std::string, uint64_t> puts_without_room_;  // guarded by mu_
    // Guarded by store_->mu: read under it with the object.
    std::unordered_set<std::string> late_bytes_keys_;
    struct LateBytes {
        void *buffer;
        size_t size;
    };
    std::vector<LateBytes> late_bytes_;  // guarded by mu_: what the last read call's failed transfers deliver
};

}  // namespace mooncake
