#include "workers.h"

namespace kvt_workers {

Workers::~Workers() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
        for (auto &worker : all_) worker->wake.notify_one();
    }
    for (auto &worker : all_) worker->thread.join();
}

void Workers::run(std::function<void()> task) {
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

void Workers::serve(Worker *me) {
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

}  // namespace kvt_workers
