// Mooncake's log (glog) in a kvtier process, written to one file whose size is bounded. glog's own
// files grow without end when their name has no timestamp (glog 0.6 reopens the same file in append
// mode at max_log_size), and with a timestamp they pile up, so the connector writes through a sink
// of its own: the file is created at the first line, and once it holds half the bound it becomes
// `<path>.1` (replacing the one before) and a new file starts. The two together stay within the
// bound, give or take one line.
#pragma once

#ifndef KVTIER_TESTDOUBLE
#include <glog/logging.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace kvt_shim {

class CappedLogSink : public google::LogSink {
   public:
    CappedLogSink(std::string path, uint64_t max_bytes) : path_(std::move(path)), half_(max_bytes / 2) {}

    void send(google::LogSeverity severity, const char *full_filename, const char *base_filename,
              int line, const google::LogMessageTime &time, const char *message, size_t message_len) override {
        (void)full_filename;
        std::string text = ToString(severity, base_filename, line, time, message, message_len);
        text += '\n';
        std::lock_guard<std::mutex> lock(mutex_);
        if (file_ != nullptr && written_ >= half_) rotate();
        if (file_ == nullptr && !open()) return;  // nowhere to write
        written_ += std::fwrite(text.data(), 1, text.size(), file_);
        // Unbuffered enough that a crash's last lines are there: a crash is what the log is read for.
        std::fflush(file_);
    }

   private:
    bool open() {
        if ((file_ = std::fopen(path_.c_str(), "a")) == nullptr) return false;
        std::fseek(file_, 0, SEEK_END);  // a file the user named may hold lines already
        const long at = std::ftell(file_);
        written_ = at > 0 ? static_cast<uint64_t>(at) : 0;
        return true;
    }

    void rotate() {
        std::fclose(file_);
        file_ = nullptr;
        written_ = 0;
        std::rename(path_.c_str(), (path_ + ".1").c_str());
    }

    const std::string path_;
    const uint64_t half_;
    std::mutex mutex_;
    std::FILE *file_ = nullptr;
    uint64_t written_ = 0;
};

}  // namespace kvt_shim
#endif
