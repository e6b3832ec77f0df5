#include "store_sources.h"

#include <atomic>
#include <chrono>
#include <deque>
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

// As long as a transfer Mooncake gave up on can go on: its fixed 60 s, and some.
constexpr auto kLateReads = std::chrono::seconds(90);

struct Entry {
    uintptr_t end;
    int32_t *guard;  // null once its call returned with a failure: closed for good
    std::shared_ptr<Registration::Buffers> owner;
    size_t index;
};

using Entries = std::multimap<uintptr_t, Entry>;

std::shared_mutex g_mutex;
Entries g_entries;
// Closed entries in the order they expire.
std::deque<std::pair<Clock::time_point, Entries::iterator>> g_closed;
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

void drop_expired(Clock::time_point now) {
    while (!g_closed.empty() && g_closed.front().first <= now) {
        g_entries.erase(g_closed.front().second);
        g_closed.pop_front();
    }
    if (g_entries.empty()) {
        g_low.store(std::numeric_limits<uintptr_t>::max(), std::memory_order_relaxed);
        g_high.store(0, std::memory_order_relaxed);
    }
}

}  // namespace

struct Registration::Buffers {
    explicit Buffers(size_t n) : refused(new std::atomic<bool>[n]()) {}
    std::unique_ptr<std::atomic<bool>[]> refused;
    std::vector<Entries::iterator> entries;
};

Registration::Registration(int32_t *guard, const std::vector<void *> &buffers,
                           const std::vector<size_t> &lens)
    : buffers_(std::make_shared<Buffers>(buffers.size())) {
    InRegistry in_registry;
    std::unique_lock<std::shared_mutex> lock(g_mutex);
    drop_expired(Clock::now());
    buffers_->entries.reserve(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) {
        const auto start = reinterpret_cast<uintptr_t>(buffers[i]);
        buffers_->entries.push_back(g_entries.emplace(start, Entry{start + lens[i], guard, buffers_, i}));
        g_longest = std::max(g_longest, lens[i]);
        if (start < g_low.load(std::memory_order_relaxed)) g_low.store(start, std::memory_order_relaxed);
        if (start + lens[i] > g_high.load(std::memory_order_relaxed))
            g_high.store(start + lens[i], std::memory_order_relaxed);
    }
}

Registration::~Registration() {
    InRegistry in_registry;
    std::unique_lock<std::shared_mutex> lock(g_mutex);
    const auto now = Clock::now();
    for (auto it : buffers_->entries) {
        if (failed_) {
            it->second.guard = nullptr;
            g_closed.emplace_back(now + kLateReads, it);
        } else {
            g_entries.erase(it);
        }
    }
    drop_expired(now);
}

bool Registration::refused(size_t i) const { return buffers_->refused[i].load(); }

namespace detail {

bool may_hold(const void *p) {
    const auto at = reinterpret_cast<uintptr_t>(p);
    return at >= g_low.load(std::memory_order_relaxed) && at < g_high.load(std::memory_order_relaxed) &&
           !t_in_registry;
}

int32_t *guard_for(const void *p, bool *refused) {
    const auto at = reinterpret_cast<uintptr_t>(p);
    InRegistry in_registry;
    std::shared_lock<std::shared_mutex> lock(g_mutex);
    const auto first = at > g_longest ? g_entries.lower_bound(at - g_longest) : g_entries.begin();
    const auto holds_p = [at](const Entries::value_type &e) { return e.first <= at && at < e.second.end; };
    for (auto it = first; it != g_entries.end() && it->first <= at; ++it)
        // Any open batch holding these bytes keeps the caller from changing them while we read.
        if (holds_p(*it) && it->second.guard != nullptr && hold(it->second.guard)) return it->second.guard;
    *refused = false;
    for (auto it = first; it != g_entries.end() && it->first <= at; ++it)
        if (holds_p(*it)) {
            it->second.owner->refused[it->second.index].store(true);
            *refused = true;
        }
    return nullptr;
}

}  // namespace detail

}  // namespace kvt_sources
