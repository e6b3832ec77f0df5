// KVT_FORWARD defines a function of a LazyLibrary (lazy_library.h) with the signature of its
// header, which the compiler checks: the first call looks the real function up, every call
// forwards to it. When the library or the function is missing it sets errno to ENOSYS and
// returns `failed` (the function's own failure value), so that a caller sees a failed call,
// never a crash; kvt_create refuses a configuration that needs a missing library beforehand.
// The name is parenthesised where it is defined, since headers may define it as a macro.
#pragma once

#include <atomic>
#include <cerrno>

#include "lazy_library.h"

#define KVT_FORWARD(library, ret, name, params, args, failed)                                \
    extern "C" ret(name) params {                                                            \
        static std::atomic<void *> slot{nullptr};                                            \
        auto real = reinterpret_cast<ret(*) params>(kvt_lazy::library().symbol(#name, slot)); \
        if (real == nullptr) {                                                               \
            errno = ENOSYS;                                                                  \
            return failed;                                                                   \
        }                                                                                    \
        return real args;                                                                    \
    }
