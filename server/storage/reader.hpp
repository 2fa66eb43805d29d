#pragma once

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "elgrande/db/store.hpp"

namespace elgrande::server {

// Queries on read-only connections of their own (history, record export), so that they
// never wait behind the writer's commits nor delay them: in write-ahead-log mode readers
// and the one writer do not block each other. A reader sees everything committed before
// it starts.
class Reader {
 public:
  using Work = std::function<void(db::Store&)>;
  // Called instead when the work throws (or the database cannot be read), with the reason:
  // every read is answered.
  using Failed = std::function<void(const std::string& why)>;

  // `database`: what db::open takes, a SQLite file or a PostgreSQL URL.
  Reader(std::string database, int threads = 1);
  ~Reader();  // stop()
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Callable from any thread; runs on a reader thread.
  void read(Work work, Failed failed);

  // Runs everything queued so far, then ends the threads. Idempotent.
  void stop();

 private:
  struct Job {
    Work work;
    Failed failed;
  };

  void run();

  const std::string database_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace elgrande::server
