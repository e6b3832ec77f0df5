// Threads that run the parts of a batch beside the caller's, kept once started, so that a batch
// starts no thread in the steady state: a load reads each storage node on a thread of its own, so
// that a silent node holds up only its own keys' transfers.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kvt_workers {

class Workers {
   public:
    Workers() = default;
    Workers(const Workers &) = delete;
    Workers &operator=(const Workers &) = delete;
    // Every task has returned by then: the batches that gave them have.
    ~Workers() {
        {
            std::lock_guard<std::mutex> lock(mu_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (auto &thread : threads_) thread.join();
    }

    // Runs `task` on an idle thread, or on a new one when none is idle: each task has a thread to
    // itself at once, however long the others take.
    void run(std::function<void()> task) {
        std::lock_guard<std::mutex> lock(mu_);
        tasks_.push_back(std::move(task));
        if (idle_ < tasks_.size()) threads_.emplace_back([this] { serve(); });
        else wake_.notify_one();
    }

   private:
    void serve() {
        std::unique_lock<std::mutex> lock(mu_);
        while (true) {
            ++idle_;
            wake_.wait(lock, [&] { return !tasks_.empty() || stopping_; });
            --idle_;
            if (tasks_.empty()) return;
            auto task = std::move(tasks_.front());
            tasks_.pop_front();
            lock.unlock();
            task();
            lock.lock();
        }
    }

    std::mutex mu_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> tasks_;
    size_t idle_ = 0;  // threads waiting for a task
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

// Runs body(0) .. body(parts - 1), every part but the first on a worker, and returns once all have
// returned (they share the caller's stack); then rethrows the first failure.
template <class Body>
void in_parallel(Workers &workers, size_t parts, Body &&body) {
    std::mutex mu;
    std::condition_variable done;
    size_t running = parts;
    std::exception_ptr failure;
    auto part = [&](size_t p) {
        std::exception_ptr failed;
        try {
            body(p);
        } catch (...) {
            failed = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(mu);
        if (!failure) failure = failed;
        if (--running == 0) done.notify_one();
    };
    for (size_t p = 1; p < parts; ++p) workers.run([&, p] { part(p); });
    part(0);
    std::unique_lock<std::mutex> lock(mu);
    done.wait(lock, [&] { return running == 0; });
    if (failure) std::rethrow_exception(failure);
}

}  // namespace kvt_workers
