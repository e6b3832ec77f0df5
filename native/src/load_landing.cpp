#include "load_landing.h"

#include <algorithm>
#include <array>
#include <atomic>

namespace kvt_landing {

namespace {

constexpr int kFds = 1 << 16;  // a socket past it belongs to no call: its receives are not asked

// The call of each socket that a load's thread opened; empty for every other socket.
std::array<std::atomic<Connection>, kFds> call_of_fd;
thread_local Connection this_thread;
thread_local bool this_thread_loads = false;

}  // namespace

bool State::overlaps(uintptr_t start, uintptr_t end) const {
    return std::any_of(buffers.begin(), buffers.end(),
                       [&](const auto &buffer) { return buffer.first < end && start < buffer.second; });
}

Call::Call(int32_t *guard, const std::vector<void *> &buffers, const std::vector<size_t> &lens)
    : state_(std::make_shared<State>()) {
    state_->guard = guard;
    for (size_t i = 0; i < buffers.size(); ++i) {
        const auto start = reinterpret_cast<uintptr_t>(buffers[i]);
        state_->buffers.emplace_back(start, start + lens[i]);
    }
}

Call::~Call() {
    std::unique_lock<std::shared_mutex> ending(state_->ending);
    state_->ended = true;
}

OnThisThread::OnThisThread() : before_(std::move(this_thread)), was_loading_(this_thread_loads) {
    this_thread = nullptr;
    this_thread_loads = true;
}

OnThisThread::OnThisThread(const Call &call) : OnThisThread() { this_thread = call.connection(); }

OnThisThread::~OnThisThread() {
    this_thread = std::move(before_);
    this_thread_loads = was_loading_;
}

const Connection &current() { return this_thread; }

bool loading() { return this_thread_loads; }

void connecting(int fd) {
    if (fd >= 0 && fd < kFds) call_of_fd[fd].store(this_thread);
}

void closing(int fd) {
    if (fd >= 0 && fd < kFds) call_of_fd[fd].store(nullptr);
}

Connection of(int fd) {
    if (fd < 0 || fd >= kFds) return nullptr;
    return call_of_fd[fd].load();
}

}  // namespace kvt_landing
