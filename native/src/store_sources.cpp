#include "store_sources.h"

#include <atomic>
#include <chrono>
#include <limits>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "kvtier_mooncake.h"

namespace kvt_sources {

bool hold(int32_t *guard) {
    while (true) {
        int32_t expected = KVT_GUARD_OPEN;
        if (__atomic_compare_exchange_n(guard, &expected, KVT_GUARD_COPYING, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST))
            return true;
        if (expected == KVT_GUARD_CLOSED) return false;
        std::this_thread::yield();  // another thread of this batch is reading or writing
    }
}

void release(int32_t *guard) { __atomic_store_n(guard, KVT_GUARD_OPEN, __ATOMIC_SEQ_CST); }

namespace {

using Clock = std::chrono::steady_clock;

// A buffer of a call in progress.
struct Open {
    uintptr_t end;
    int32_t *guard;
    std::shared_ptr<Registration::Buffers> owner;
    size_t index;
};

// A buffer of a call that returned with a key not stored, closed until `until`. One per start
// address: a slice stored again and again is one entry, however many of its calls failed.
struct Closed {
    uintptr_t end;
    Clock::time_point until;
};

std::shared_mutex g_mutex;
std::multimap<uintptr_t, Open> g_open;
std::map<uintptr_t, Closed> g_closed;
Clock::time_point g_swept;
size_t g_longest = 0;
// [g_low, g_high) covers every entry; empty when there is none.
std::atomic<uintptr_t> g_low{std::numeric_limits<uintptr_t>::max()};
std::atomic<uintptr_t> g_high{0};

// Set while this thread works on the registry, whose own copies (memcpy) must not ask it again.
thread_local bool t_in_registry = false;

struct InRegistry {
    InRegistry() { t_in_registry = true; }
    ~InRegistry() { t_in_registry = false; }
};

void cover(uintptr_t start, uintptr_t end) {
    g_longest = std::max<size_t>(g_longest, end - start);
    if (start < g_low.load(std::memory_order_relaxed)) g_low.store(start, std::memory_order_relaxed);
    if (end > g_high.load(std::memory_order_relaxed)) g_high.store(end, std::memory_order_relaxed);
}

void sweep(Clock::time_point now) {
    if (now - g_swept < std::chrono::seconds(1)) return;
    g_swept = now;
    for (auto it = g_closed.begin(); it != g_closed.end();)
        it = it->second.until <= now ? g_closed.erase(it) : std::next(it);
    if (g_open.empty() && g_closed.empty()) {
        g_low.store(std::numeric_limits<uintptr_t>::max(), std::memory_order_relaxed);
        g_high.store(0, std::memory_order_relaxed);
    }
}

}  // namespace

struct Registration::Buffers {
    explicit Buffers(size_t n) : refused(new std::atomic<bool>[n]()) {}
    std::unique_ptr<std::atomic<bool>[]> refused;
    std::vector<std::multimap<uintptr_t, Open>::iterator> entries;
};

Registration::Registration(int32_t *guard, const std::vector<void *> &buffers,
                           const std::vector<size_t> &lens)
    : buffers_(std::make_shared<Buffers>(buffers.size())) {
    InRegistry in_registry;
    std::unique_lock<std::shared_mutex> lock(g_mutex);
    buffers_->entries.reserve(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) {
        const auto start = reinterpret_cast<uintptr_t>(buffers[i]);
        buffers_->entries.push_back(g_open.emplace(start, Open{start + lens[i], guard, buffers_, i}));
        cover(start, start + lens[i]);
    }
}

Registration::~Registration() {
    InRegistry in_registry;
    std::unique_lock<std::shared_mutex> lock(g_mutex);
    const auto now = Clock::now();
    for (auto it : buffers_->entries) {
        if (!all_stored_) {
            auto [closed, added] = g_closed.try_emplace(it->first, Closed{it->second.end, now + kLateTransfers});
            if (!added) closed->second = Closed{std::max(closed->second.end, it->second.end), now + kLateTransfers};
        }
        g_open.erase(it);
    }
    sweep(now);
}

bool Registration::refused(size_t i) const { return buffers_->refused[i].load(); }

namespace detail {

bool may_hold(const void *p) {
    const auto at = reinterpret_cast<uintptr_t>(p);
    return at >= g_low.load(std::memory_order_relaxed) && at < g_high.load(std::memory_order_relaxed) &&
           !t_in_registry;
}

int32_t *guard_for(const void *p, bool late, bool *refused) {
    const auto at = reinterpret_cast<uintptr_t>(p);
    const auto from = at > g_longest ? at - g_longest : 0;
    InRegistry in_registry;
    std::shared_lock<std::shared_mutex> lock(g_mutex);
    const auto open = g_open.lower_bound(from);
    for (auto it = open; it != g_open.end() && it->first <= at; ++it)
        // Any open batch holding these bytes keeps the caller from changing them while we read.
        if (at < it->second.end && hold(it->second.guard)) return it->second.guard;
    *refused = false;
    for (auto it = open; it != g_open.end() && it->first <= at; ++it)
        if (at < it->second.end) {
            it->second.owner->refused[it->second.index].store(true);
            *refused = true;
        }
    if (late && !*refused) {
        const auto now = Clock::now();
        for (auto it = g_closed.lower_bound(from); !*refused && it != g_closed.end() && it->first <= at; ++it)
            *refused = at < it->second.end && now < it->second.until;
    }
    return nullptr;
}

}  // namespace detail

}  // namespace kvt_sources
