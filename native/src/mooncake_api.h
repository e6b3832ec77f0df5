// The one place where connector.cpp meets Mooncake.
//
// Normal build: Mooncake's own headers (found through MOONCAKE_INCLUDE_DIR).
// -DKVTIER_TESTDOUBLE: the in-memory test fixture in native/testdouble/, which mirrors
// the subset of the API used by connector.cpp. Anything that must differ between the two
// lives here, so connector.cpp itself is byte-for-byte the same in both libraries.
#pragma once

#include <string>

#ifdef KVTIER_TESTDOUBLE
#include "mooncake_testdouble.h"
#else
#include "config.h"       // mooncake-transfer-engine: mooncake::globalConfig()
#include "real_client.h"  // mooncake-store: mooncake::RealClient, ReplicateConfig
#include "types.h"        // mooncake-store: ErrorCode, toString, ConfigDict
#endif

namespace kvt_shim {

// Extra text for a failed setup_internal. Real Mooncake reports the cause only through
// glog, so all we can add is a pointer there; the double records its reason.
inline std::string setup_failure_detail(mooncake::RealClient &client) {
#ifdef KVTIER_TESTDOUBLE
    return client.testdouble_setup_error();
#else
    (void)client;
    return "see Mooncake's log (glog) for the cause";
#endif
}

}  // namespace kvt_shim
