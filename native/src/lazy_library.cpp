#include "lazy_library.h"

#include <dlfcn.h>

namespace kvt_lazy {

bool LazyLibrary::open() {
    std::call_once(once_, [this] {
        handle_ = dlopen(soname_, RTLD_NOW | RTLD_LOCAL);
        if (handle_ == nullptr) {
            const char *why = dlerror();
            error_ = std::string(why != nullptr ? why : "dlopen failed");
        }
    });
    return handle_ != nullptr;
}

void *LazyLibrary::symbol(const char *name, std::atomic<void *> &slot) {
    void *found = slot.load(std::memory_order_acquire);
    if (found == nullptr && open()) {
        found = dlsym(handle_, name);
        slot.store(found, std::memory_order_release);
    }
    return found;
}

std::string LazyLibrary::unavailable_reason() {
    if (open()) return "";
    return std::string(soname_) + " (" + package_ + "), which cannot be loaded: " + error_;
}

LazyLibrary &ibverbs() {
    static LazyLibrary lib("libibverbs.so.1", "rdma-core; on Debian libibverbs1 and ibverbs-providers");
    return lib;
}

LazyLibrary &curl() {
    static LazyLibrary lib("libcurl.so.4", "libcurl; on Debian libcurl4");
    return lib;
}

}  // namespace kvt_lazy
