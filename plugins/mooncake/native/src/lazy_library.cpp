#include "lazy_library.h"

#include <dlfcn.h>

namespace kvt_lazy {

LazyLibrary::LazyLibrary(const char *soname, const char *package) : handle(dlopen(soname, RTLD_NOW | RTLD_LOCAL)) {
    if (handle == nullptr) {
        const char *error = dlerror();
        why = std::string(soname) + " (" + package + "), which cannot be loaded: " +
              (error != nullptr ? error : "dlopen failed");
    }
}

void *LazyLibrary::symbol(const char *name) const { return handle == nullptr ? nullptr : dlsym(handle, name); }

LazyLibrary &ibverbs() {
    static LazyLibrary lib("libibverbs.so.1", "rdma-core; on Debian libibverbs1 and ibverbs-providers");
    return lib;
}

LazyLibrary &curl() {
    static LazyLibrary lib("libcurl.so.4", "libcurl; on Debian libcurl4");
    return lib;
}

}  // namespace kvt_lazy
