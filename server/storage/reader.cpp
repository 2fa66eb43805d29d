#include "storage/reader.hpp"

#include <spdlog/spdlog.h>

#include <optional>

namespace elgrande::server {

Reader::Reader(std::string database, int threads) : database_(std::move(database)) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

Reader::~Reader() { stop(); }

void Reader::read(Work work, Failed failed) {
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(Job{std::move(work), std::move(failed)});
  }
  wake_.notify_one();
}

void Reader::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

void Reader::run() {
  // Opened on first use and again after a failure, so that a passing fault (the file
  // briefly unreadable) costs only the reads that met it.
  std::unique_ptr<db::Database> database;
  std::unique_ptr<db::Store> store;
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to do
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    try {
      if (!store) {
        database = db::open(database_, db::OpenOptions{.create = false, .read_only = true});
        store = std::make_unique<db::Store>(*database);
      }
      job.work(*store);
    } catch (const std::exception& error) {
      spdlog::error("database read failed: {}", error.what());
      store.reset();
      database.reset();
      job.failed(error.what());
    }
  }
}

}  // namespace elgrande::server
