// TEST FIXTURE - not Mooncake.
//
// An in-memory stand-in for exactly the subset of Mooncake's C++ API that
// the connector sources use (mooncake::RealClient, ReplicateConfig, ErrorCode,
// ConfigDict, globalConfig()). Names and signatures follow Mooncake
// (mooncake-store/include/real_client.h, replica.h, types.h;
// mooncake-transfer-engine/include/config.h) so the same connector sources compile against
// either. It is linked only into libkvtier_mooncake_testdouble.so, which lets the Java
// tests drive Java -> JNR-FFI -> C ABI -> connector without a Mooncake cluster.
//
// Semantics mirrored from Mooncake: setup requires local_hostname and metadata_server;
// objects are shared by every client configured with the same master_server_addr; put
// of an existing key succeeds and leaves the object alone; get_into returns the object
// size, INVALID_PARAMS for a too-small buffer, OBJECT_NOT_FOUND for a missing key.
// Test knobs (all `testdouble_*` setup keys) are documented in mooncake_testdouble.cpp.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
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

// mooncake-store/include/pyclient.h health_check() codes.
enum HealthCheckStatus : int {
    HC_HEALTHY = 0,
    HC_NOT_INITIALIZED = 1,
    HC_MASTER_UNREACHABLE = 2,
};

namespace testdouble {
struct ObjectStore;  // one per master_server_addr, process-global

// Stand-in for tl::expected<void, ErrorCode>: the connector only tests it and reads
// error().
class ExpectedVoid {
   public:
    ExpectedVoid() = default;
    explicit ExpectedVoid(ErrorCode e) : ok_(false), error_(e) {}
    bool has_value() const { return ok_; }
    explicit operator bool() const { return ok_; }
    ErrorCode error() const { return error_; }

   private:
    bool ok_ = true;
    ErrorCode error_ = ErrorCode::OK;
};

enum Op { kPut = 0, kGet, kExists, kRemove, kOpCount };

// Where an object lives: what Mooncake's BatchQuery tells about its memory replicas.
struct Location {
    int64_t error = 0;               // < 0: the query's error code
    uint64_t size = 0;
    std::vector<std::string> nodes;  // one transfer endpoint per replica
    bool checksum = true;            // the object carries its checksum (testdouble_unchecked_keys)
};
}  // namespace testdouble

class RealClient {
   public:
    static std::shared_ptr<RealClient> create();
    ~RealClient();

    testdouble::ExpectedVoid setup_internal(const ConfigDict &config);

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
    std::vector<int> batchRemove(const std::vector<std::string> &keys, bool force = false);

    int health_check();
    int tearDownAll();

    // Not in Mooncake: why the last setup_internal failed (Mooncake only logs it).
    std::string testdouble_setup_error() const;

    // Mooncake's Client::BatchQuery and Client::BatchGet(keys, query_results, slices), reduced
    // to what the connector reads: the nodes of each key's replicas, and a read of key i from
    // nodes[i] into buffers[i] (0 or a negative code per key). Without testdouble_nodes no
    // object has a node, and the connector reads through batch_get_into.
    std::vector<testdouble::Location> testdouble_locate(const std::vector<std::string> &keys);
    std::vector<int64_t> testdouble_read_from(const std::vector<std::string> &keys,
                                              const std::vector<std::string> &nodes,
                                              const std::vector<void *> &buffers);
    // Client::CanUseLocalMemcpy: whether `node` is testdouble_local_node.
    bool testdouble_copies_locally(const std::string &node) const;

   private:
    RealClient() = default;

    // Common prologue of every batch call: applies testdouble_fail_batch (returns true
    // when the caller must return a wrong-sized result) and testdouble_delay_ms_*.
    bool batch_prologue(testdouble::Op op, size_t keys) const;
    // Appends "<serial_> <what>" to the testdouble_calls_file, if one was set.
    void record(const std::string &what) const;
    // Per-key precheck: 0 when the op may proceed, else the per-key error code.
    int key_precheck(const std::string &key) const;
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
    std::string local_node_;          // written only during setup
    std::string corrupt_node_;        // written only during setup
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
