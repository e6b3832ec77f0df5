// A system library the connector uses only for some configurations (libibverbs for RDMA, libcurl
// for an http:// metadata server), opened with dlopen at its first use instead of being a
// DT_NEEDED entry, so that the connector loads on a machine without it. ibverbs_shim.cpp and
// curl_shim.cpp define the library's functions that Mooncake calls; each forwards to the real one.
#pragma once

#include <dlfcn.h>

#include <cerrno>
#include <string>

namespace kvt_lazy {

struct LazyLibrary {
    LazyLibrary(const char *soname, const char *package) : handle(dlopen(soname, RTLD_NOW | RTLD_LOCAL)) {
        if (handle != nullptr) return;
        const char *error = dlerror();
        why = std::string(soname) + " (" + package + "), which cannot be loaded: " +
              (error != nullptr ? error : "dlopen failed");
    }
    // The address of `name` in the library, or nullptr when the library or the symbol is missing.
    void *symbol(const char *name) const { return handle == nullptr ? nullptr : dlsym(handle, name); }
    // Empty when the library opened, else "<soname> (<package>), which cannot be loaded: <why>".
    std::string unavailable_reason() const { return why; }

    void *handle;
    std::string why;
};

inline LazyLibrary &ibverbs() {
    static LazyLibrary lib("libibverbs.so.1", "rdma-core; on Debian libibverbs1 and ibverbs-providers");
    return lib;
}

inline LazyLibrary &curl() {
    static LazyLibrary lib("libcurl.so.4", "libcurl; on Debian libcurl4");
    return lib;
}

}  // namespace kvt_lazy

// Defines a function of a LazyLibrary with the signature of its header, which the compiler checks:
// the first call looks the real function up, every call forwards to it. When the library or the
// function is missing it sets errno to ENOSYS and returns `failed` (the function's own failure
// value): a caller sees a failed call, never a crash, and kvt_create refuses a configuration that
// needs a missing library beforehand. The name is parenthesised: headers may define it as a macro.
#define KVT_FORWARD(library, ret, name, params, args, failed)                                       \
    extern "C" ret(name) params {                                                                   \
        static const auto real = reinterpret_cast<ret(*) params>(kvt_lazy::library().symbol(#name)); \
        if (real == nullptr) {                                                                      \
            errno = ENOSYS;                                                                         \
            return failed;                                                                          \
        }                                                                                           \
        return real args;                                                                           \
    }
