// A system library the connector uses only for some configurations (libibverbs for RDMA,
// libcurl for an http:// metadata server), opened with dlopen at its first use instead of being
// a DT_NEEDED entry, so that the connector loads on a machine without it. The *_shim.cpp files
// define the library's functions that Mooncake calls; each forwards to the real one.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

namespace kvt_lazy {

class LazyLibrary {
public:
    LazyLibrary(const char *soname, const char *package) : soname_(soname), package_(package) {}

    // The address of `name` in the library (opened on the first call), or nullptr when the
    // library or the symbol is missing. `slot` caches the answer per symbol.
    void *symbol(const char *name, std::atomic<void *> &slot);

    // Empty when the library opens, else "<soname> (<package>), which cannot be loaded: <why>".
    std::string unavailable_reason();

private:
    bool open();

    const char *soname_;
    const char *package_;
    std::once_flag once_;
    void *handle_ = nullptr;
    std::string error_;
};

LazyLibrary &ibverbs();
LazyLibrary &curl();

}  // namespace kvt_lazy
