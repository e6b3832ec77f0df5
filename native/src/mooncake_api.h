// Where the connector reads Mooncake's API beyond RealClient's batch calls: locating replicas,
// reading one of them, and the process-wide settings. With -DKVTIER_TESTDOUBLE the headers are the
// in-memory double's (native/testdouble/), which has the same types and calls, so the unit tests run
// this code too; the few places where the two must differ are marked.
#pragma once

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#ifdef KVTIER_TESTDOUBLE
#include "mooncake_testdouble.h"
#else
#include <glog/logging.h>

#include "config.h"       // mooncake-transfer-engine: mooncake::globalConfig()
#include "real_client.h"  // mooncake-store: mooncake::RealClient, ReplicateConfig
#include "types.h"        // mooncake-store: ErrorCode, toString, ConfigDict
#include "client_buffer.h"  // mooncake-store: allocateSlices, calculate_total_size
#include "client_service.h" // mooncake-store: Client, QueryResult
#include "lazy_library.h"
#include "capped_log.h"
#include "environ.h"  // mooncake-common: Environ
#include "object_checksum.h"
#endif

namespace kvt_shim {

// Extra text for a failed setup_internal. Real Mooncake reports the cause only through
// glog, so all we can add is a pointer there; the double records its reason.
inline std::string setup_failure_detail(mooncake::RealClient &client) {
#ifdef KVTIER_TESTDOUBLE
    return client.testdouble_setup_error();
#else
    (void)client;
    return "the cause is in Mooncake's log";
#endif
}

// Why `config` cannot work here, naming the missing system library, or empty. The real connector
// opens libibverbs (RDMA) and libcurl (an http:// metadata server) only when used
// (lazy_library.h); a configuration that needs a missing one fails with its name up front,
// not somewhere inside Mooncake.
inline std::string missing_library(const mooncake::ConfigDict &config) {
#ifdef KVTIER_TESTDOUBLE
    (void)config;
    return "";
#else
    auto value = [&](const char *key) {
        auto it = config.find(key);
        return it == config.end() ? std::string() : it->second;
    };
    std::string why;
    if (value("protocol") == "rdma" && !(why = kvt_lazy::ibverbs().unavailable_reason()).empty())
        return "protocol rdma needs " + why;
    const std::string metadata = value("metadata_server");
    if ((metadata.rfind("http://", 0) == 0 || metadata.rfind("https://", 0) == 0) &&
        !(why = kvt_lazy::curl().unavailable_reason()).empty())
        return "metadata_server " + metadata + " needs " + why;
    return "";
#endif
}

// One question to the master: 0 when it answered, else Mooncake's negative error code.
inline int64_t ask_master(mooncake::RealClient &client) {
    const int got = client.isExist("kvtier-health-probe");
    return got < 0 ? got : 0;
}

// Where each key of a batch lives, from one BatchQuery, kept for the transfers that follow.
struct Locations {
    struct Key {
        int64_t error = 0;               // < 0: the query's error code; the key is not read
        uint64_t size = 0;               // the object's size
        std::vector<std::string> nodes;  // the endpoint of each complete memory replica
        bool elsewhere = false;          // replicas outside memory only: batch_get_into reads it
        std::vector<size_t> replica;     // nodes[r] is raw[...].replicas[replica[r]]
    };
    std::vector<Key> keys;
    // Keys without an object checksum that locate reported missing (KVT_UNCHECKED_MISS and _REMOVE;
    // remove_unchecked removes them under the latter).
    std::vector<std::string> unchecked;
    std::vector<tl::expected<mooncake::QueryResult, mooncake::ErrorCode>> raw;
};

// `unchecked_are_missing`: an object without a checksum is reported OBJECT_NOT_FOUND and listed in
// `unchecked`, instead of read unverified as Mooncake's own clients read it. Only while this process
// checks objects: with MOONCAKE_STORE_CHECKSUM=false kvtier's own objects have no checksum either.
inline Locations locate(mooncake::RealClient &client, const std::vector<std::string> &keys,
                        bool unchecked_are_missing) {
    const bool missing = unchecked_are_missing && mooncake::Environ::Get().GetStoreChecksumEnabled();
    Locations out;
    out.raw = client.client_->BatchQuery(keys);
    out.keys.resize(out.raw.size());  // a wrong count fails the batch (the connector checks it)
    for (size_t i = 0; i < out.raw.size(); ++i) {
        auto &key = out.keys[i];
        if (!out.raw[i]) {
            key.error = static_cast<int64_t>(out.raw[i].error());
            continue;
        }
        if (missing && !out.raw[i]->object_checksum.has_value()) {
            key.error = static_cast<int64_t>(mooncake::ErrorCode::OBJECT_NOT_FOUND);
            out.unchecked.push_back(keys[i]);
            continue;
        }
        const auto &replicas = out.raw[i]->replicas;
        for (size_t r = 0; r < replicas.size(); ++r) {
            if (!replicas[r].is_memory_replica()) continue;
            if (replicas[r].status != mooncake::ReplicaStatus::COMPLETE) continue;
            if (key.nodes.empty()) key.size = mooncake::calculate_total_size(replicas[r]);
            key.nodes.push_back(
                replicas[r].get_memory_descriptor().buffer_descriptor.transport_endpoint_);
            key.replica.push_back(r);
        }
        key.elsewhere = key.nodes.empty();
    }
    return out;
}

// Removes the objects locate() reported missing for want of a checksum (KVT_UNCHECKED_REMOVE); best
// effort, as a later read finds them again.
inline void remove_unchecked(mooncake::RealClient &client, const Locations &where) {
    if (where.unchecked.empty()) return;
    LOG(WARNING) << "kvtier: " << where.unchecked.size()
                 << " object(s) without a checksum, with unchecked_objects = remove: reported missing and "
                    "removed, the first " << where.unchecked.front();
    client.client_->BatchRemove(where.unchecked, true);
}

// One transfer: key which[j] of the located batch from its replica choice[j] (an index into its
// nodes) into buffers[which[j]]. Per j: 0, or a negative error code.
inline std::vector<int64_t> read_from(mooncake::RealClient &client,
                                      const std::vector<std::string> &keys,
                                      const Locations &where, const std::vector<size_t> &which,
                                      const std::vector<size_t> &choice,
                                      const std::vector<void *> &buffers) {
    std::vector<std::string> ks;
    std::vector<mooncake::QueryResult> queries;
    std::unordered_map<std::string, std::vector<mooncake::Slice>> slices;
    for (size_t j = 0; j < which.size(); ++j) {
        const size_t i = which[j];
        const auto &query = *where.raw[i];
        const auto &replica = query.replicas[where.keys[i].replica[choice[j]]];
        std::vector<mooncake::Slice> key_slices;
        mooncake::allocateSlices(key_slices, replica, buffers[i]);
        ks.push_back(keys[i]);
        // Only the chosen replica, so that BatchGet cannot pick another one.
        queries.emplace_back(std::vector<mooncake::Replica::Descriptor>{replica},
                             query.lease_timeout, query.object_checksum);
        slices[keys[i]] = std::move(key_slices);
    }
    auto got = client.client_->BatchGet(ks, queries, slices);
    // Mooncake turns a read that outlived its object's lease into LEASE_EXPIRED only when its bytes
    // matched. A mismatch then says nothing of the object: once the lease ended, the master could
    // free its memory for others (as a read stuck across a partition finds), and removing the key
    // on that evidence removed the newer object it named by then.
    const auto now = std::chrono::steady_clock::now();
    std::vector<int64_t> out(got.size());
    for (size_t j = 0; j < got.size(); ++j) {
        out[j] = got[j] ? 0 : static_cast<int64_t>(got[j].error());
        if (got[j].error() == mooncake::ErrorCode::CHECKSUM_MISMATCH && j < queries.size() &&
            now >= queries[j].lease_timeout)
            out[j] = static_cast<int64_t>(mooncake::ErrorCode::LEASE_EXPIRED);
    }
    return out;
}

// As read_from, for replicas in this process's own segment (CanUseLocalMemcpy): the connector's
// own copy, which checks the object's checksum in the same pass. Mooncake hands such a read to its
// memcpy thread and then checksums the copy, reading the object twice; where memory is the limit,
// that costs a quarter of a load. Like Mooncake's, an object without a checksum is copied unchecked,
// and a read that ends after the object's lease says LEASE_EXPIRED, whatever its bytes. The double
// reads through BatchGet.
inline std::vector<int64_t> read_local(mooncake::RealClient &client,
                                       const std::vector<std::string> &keys,
                                       const Locations &where, const std::vector<size_t> &which,
                                       const std::vector<size_t> &choice,
                                       const std::vector<void *> &buffers) {
#ifdef KVTIER_TESTDOUBLE
    return read_from(client, keys, where, which, choice, buffers);
#else
    (void)client;
    (void)keys;
    const bool checked = mooncake::Environ::Get().GetStoreChecksumEnabled();
    std::vector<int64_t> out(which.size(), 0);
    for (size_t j = 0; j < which.size(); ++j) {
        const size_t i = which[j];
        const auto &query = *where.raw[i];
        const auto &replica = query.replicas[where.keys[i].replica[choice[j]]];
        const auto *object = reinterpret_cast<const void *>(
            replica.get_memory_descriptor().buffer_descriptor.buffer_address_);
        const size_t size = where.keys[i].size;
        if (!checked || !query.object_checksum.has_value()) {
            std::memcpy(buffers[i], object, size);
        } else if (kvt_checksum::copy_and_checksum(buffers[i], object, size) != *query.object_checksum) {
            out[j] = static_cast<int64_t>(mooncake::ErrorCode::CHECKSUM_MISMATCH);
        }
    }
    // As read_from's: once the lease ended, the master could have handed the memory on mid-copy.
    const auto now = std::chrono::steady_clock::now();
    for (size_t j = 0; j < which.size(); ++j)
        if (now >= where.raw[which[j]]->lease_timeout) out[j] = static_cast<int64_t>(mooncake::ErrorCode::LEASE_EXPIRED);
    return out;
#endif
}

// Copies a put's object from the caller's slice `from` to where Mooncake takes it from, and gives the
// checksum its end records: Mooncake's object checksum, in the same pass (object_checksum.h), or
// none where this process checks no object, as Mooncake's put then records none. The double keeps
// its own.
inline std::optional<uint64_t> copy_for_put(void *to, const void *from, size_t n) {
#ifndef KVTIER_TESTDOUBLE
    if (mooncake::Environ::Get().GetStoreChecksumEnabled()) return kvt_checksum::copy_and_checksum(to, from, n);
#endif
    std::memcpy(to, from, n);
    return std::nullopt;
}

// Turns Mooncake's object checksums on (docs/connector.md) unless the user set
// MOONCAKE_STORE_CHECKSUM. Mooncake reads its environment once, when first asked; false when it
// had read it before this call, and so checks no object.
inline bool check_objects_unless_told_otherwise() {
    if (std::getenv("MOONCAKE_STORE_CHECKSUM") != nullptr) return true;  // the user's choice
    setenv("MOONCAKE_STORE_CHECKSUM", "true", 0);
    return mooncake::Environ::Get().GetStoreChecksumEnabled();
}

// Mooncake logs through glog, to stderr unless told otherwise. With MC_LOG_DIR set, Mooncake
// initialises glog itself (a second initialisation aborts), so the user's choice stands. Otherwise
// every line goes to `path` through CappedLogSink, within max_bytes, and from WARNING up unless
// MC_LOG_LEVEL says otherwise: a storage node writes INFO lines per transfer, which would fill the
// bound with chatter and push out the lines a crash is read for. The level goes through
// MC_LOG_LEVEL because Mooncake sets glog's minloglevel from it (INFO when unset) when it first
// reads its global config, at a client's setup, overriding glog's own GLOG_minloglevel.
inline void log_to_file(const std::string &path, uint64_t max_bytes) {
#ifdef KVTIER_TESTDOUBLE
    (void)path;  // the double logs nothing
    (void)max_bytes;
#else
    if (std::getenv("MC_LOG_DIR") != nullptr) return;
    if (!google::IsGoogleLoggingInitialized()) google::InitGoogleLogging("kvtier-mooncake");
    if (std::getenv("MC_LOG_LEVEL") == nullptr) {
        setenv("MC_LOG_LEVEL", "WARNING", 0);
        FLAGS_minloglevel = google::GLOG_WARNING;  // in case Mooncake read its config already
    }
    FLAGS_logtostderr = false;
    FLAGS_alsologtostderr = false;
    FLAGS_stderrthreshold = google::GLOG_FATAL;
    // No file of glog's own, for any severity: the sink writes the only one.
    for (auto severity : {google::GLOG_INFO, google::GLOG_WARNING, google::GLOG_ERROR, google::GLOG_FATAL})
        google::SetLogDestination(severity, "");
    // Never freed: glog may log from any thread until the process ends.
    google::AddLogSink(new CappedLogSink(path, max_bytes));
#endif
}

}  // namespace kvt_shim
