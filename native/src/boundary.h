// The C ABI's boundary (include/kvtier_mooncake.h): its errors and the checks of its arguments.
// Nothing may unwind into the JVM, and a caller that broke the contract gets -22 and one line.
#pragma once

#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#define KVT_EXPORT extern "C" __attribute__((visibility("default")))

namespace kvt_boundary {

inline thread_local std::string g_last_error;

// A failure whose message is already the full text for kvt_last_error().
struct KvtError : std::runtime_error {
    int32_t code;
    KvtError(int32_t c, const std::string &msg) : std::runtime_error(msg), code(c) {}
};

constexpr int32_t kFailed = -1;
constexpr int32_t kBadArgument = -22;  // like EINVAL: the caller broke the contract

[[noreturn]] inline void bad_argument(const std::string &msg) {
    throw KvtError(kBadArgument, "kvtier_mooncake: " + msg);
}

// Runs `body` with the error slot cleared and turns every exception into a negative
// return code plus a message: nothing may unwind into the JVM.
template <class Body>
int32_t guarded(const char *fn, Body &&body) noexcept {
    try {
        g_last_error.clear();
        return body();
    } catch (const KvtError &e) {
        try { g_last_error = e.what(); } catch (...) {}
        return e.code;
    } catch (const std::exception &e) {
        try { g_last_error = std::string(fn) + ": unexpected exception: " + e.what(); } catch (...) {}
    } catch (...) {
        try { g_last_error = std::string(fn) + ": unknown exception"; } catch (...) {}
    }
    return kFailed;
}

// Validates the common batch arguments; returns false when n == 0 (nothing to do).
inline bool check_batch(const char *const *keys, const int32_t *key_lens, int32_t n,
                 const void *results) {
    if (n < 0) bad_argument("n must be >= 0, got " + std::to_string(n));
    if (n == 0) return false;
    if (keys == nullptr || key_lens == nullptr) bad_argument("keys or key_lens is null");
    if (results == nullptr) bad_argument("results is null");
    return true;
}

inline std::vector<std::string> to_keys(const char *const *keys, const int32_t *key_lens, int32_t n) {
    std::vector<std::string> out;
    out.reserve(n);
    for (int32_t i = 0; i < n; ++i) {
        if (key_lens[i] < 0) bad_argument("key_lens[" + std::to_string(i) + "] is negative");
        if (keys[i] == nullptr && key_lens[i] > 0)
            bad_argument("keys[" + std::to_string(i) + "] is null");
        out.emplace_back(keys[i] == nullptr ? "" : keys[i], static_cast<size_t>(key_lens[i]));
    }
    return out;
}

inline void to_buffers(const int64_t *addrs, const int64_t *sizes, int32_t n,
                std::vector<void *> &bufs, std::vector<size_t> &lens) {
    if (addrs == nullptr || sizes == nullptr) bad_argument("addrs or sizes is null");
    bufs.reserve(n);
    lens.reserve(n);
    for (int32_t i = 0; i < n; ++i) {
        if (sizes[i] < 0) bad_argument("sizes[" + std::to_string(i) + "] is negative");
        bufs.push_back(reinterpret_cast<void *>(static_cast<uintptr_t>(addrs[i])));
        lens.push_back(static_cast<size_t>(sizes[i]));
    }
}

// Mooncake must answer once per key; anything else means we cannot tell which key a
// result belongs to, so the whole batch fails.
template <class Vec>
inline void check_count(const char *op, const Vec &got, int32_t n) {
    if (got.size() != static_cast<size_t>(n))
        throw KvtError(kFailed, std::string("Mooncake ") + op + " returned " +
                                    std::to_string(got.size()) + " results for " +
                                    std::to_string(n) + " keys");
}

template <class Vec>
inline void copy_results(const Vec &got, int64_t *results) {
    for (size_t i = 0; i < got.size(); ++i) results[i] = static_cast<int64_t>(got[i]);
}

}  // namespace kvt_boundary
