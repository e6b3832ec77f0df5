// The one place where connector.cpp meets Mooncake.
//
// Normal build: Mooncake's own headers (found through MOONCAKE_INCLUDE_DIR).
// -DKVTIER_TESTDOUBLE: the in-memory test fixture in native/testdouble/, which mirrors
// the subset of the API used by connector.cpp. Anything that must differ between the two
// lives here, so connector.cpp itself is byte-for-byte the same in both libraries.
#pragma once

#include <cstdlib>
#include <string>

#ifdef KVTIER_TESTDOUBLE
#include "mooncake_testdouble.h"
#else
#include <glog/logging.h>

#include "config.h"       // mooncake-transfer-engine: mooncake::globalConfig()
#include "real_client.h"  // mooncake-store: mooncake::RealClient, ReplicateConfig
#include "types.h"        // mooncake-store: ErrorCode, toString, ConfigDict

#include "lazy_library.h"
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
#ifdef KVTIER_TESTDOUBLE
    return client.health_check() == mooncake::HC_HEALTHY
               ? 0 : static_cast<int64_t>(mooncake::ErrorCode::RPC_FAIL);
#else
    const auto got = client.batchIsExist({"kvtier-health-probe"});
    if (got.size() != 1) return -1;
    return got[0] < 0 ? got[0] : 0;
#endif
}

// Mooncake logs through glog, to stderr unless told otherwise. With MC_LOG_DIR set, Mooncake
// initialises glog itself (a second initialisation aborts), so the user's choice stands.
inline void log_to_file(const std::string &path) {
#ifdef KVTIER_TESTDOUBLE
    (void)path;  // the double logs nothing
#else
    if (std::getenv("MC_LOG_DIR") != nullptr) return;
    if (!google::IsGoogleLoggingInitialized()) google::InitGoogleLogging("kvtier-mooncake");
    FLAGS_logtostderr = false;
    FLAGS_alsologtostderr = false;
    FLAGS_stderrthreshold = google::GLOG_FATAL;
    FLAGS_timestamp_in_logfile_name = false;
    google::SetLogDestination(google::GLOG_INFO, path.c_str());
    google::SetLogSymlink(google::GLOG_INFO, "");  // no kvtier-mooncake.INFO link beside it
    // glog writes one more file per severity by default; the INFO file already holds them all.
    google::SetLogDestination(google::GLOG_WARNING, "");
    google::SetLogDestination(google::GLOG_ERROR, "");
    google::SetLogDestination(google::GLOG_FATAL, "");
#endif
}

}  // namespace kvt_shim
