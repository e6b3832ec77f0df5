// Threads that run the parts of a batch beside the caller's, kept once started, so that a batch
// starts no thread in the steady state: a load reads each storage node on a thread of its own, so
// that a silent node holds up only its own keys' transfers.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
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
            for (auto &worker : all_) worker->wake.notify_one();
        }
        for (auto &worker : all_) worker->thread.join();
    }

    // Runs `task` on an idle thread, or on a new one when none is idle: each task has a thread to
    // itself at once, however long the others take.
    void run(std::function<void()> task) {
        std::lock_guard<std::mutex> lock(mu_);
        if (idle_.empty()) {  // a new thread, which waits for mu_, so for its task
            auto &fresh = all_.emplace_back(std::make_unique<Worker>());
            fresh->thread = std::thread([this, me = fresh.get()] { serve(me); });
            idle_.push_back(fresh.get());
        }
        Worker *worker = idle_.back();
        idle_.pop_back();
        worker->task = std::move(task);
        worker->wake.notify_one();
    }

   private:
    struct Worker {
        std::condition_variable wake;
        std::function<void()> task;  // under the pool's mutex
        std::thread thread;
    };

    void serve(Worker *me) {
        std::unique_lock<std::mutex> lock(mu_);
        while (true) {
            me->wake.wait(lock, [&] { return me->task || stopping_; });
            if (!me->task) return;
            auto task = std::move(me->task);
            me->task = nullptr;
            lock.unlock();
            task();
            lock.lock();
            idle_.push_back(me);
        }
    }

    std::mutex mu_;
    bool stopping_ = false;
    std::vector<std::unique_ptr<Worker>> all_;
    std::vector<Worker *> idle_;
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
