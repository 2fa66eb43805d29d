#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "elgrande/db/database.hpp"
#include "elgrande/db/store.hpp"
#include "metrics.hpp"

namespace elgrande::server {

// The server's database connection, on a thread of its own: SQLite blocks, and nothing
// that blocks may run on the I/O threads. Writes that queue up while a commit is on its
// way to the disk go into the next transaction together (group commit), so one sync to
// the disk covers the moves of many tables, and no write is reported done before its
// transaction has committed.
class Storage {
 public:
  using Work = std::function<void(db::Store&)>;
  // Runs on the database thread once the write is committed (true) or abandoned (false);
  // it should only post to the strand that waits for it.
  using Done = std::function<void(bool committed)>;

  // Takes over the connection, which must be migrated already.
  Storage(std::unique_ptr<db::Database> database, std::shared_ptr<Metrics> metrics);
  ~Storage();  // stop()
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  // Callable from any thread. Writes and reads run in the order they were asked for.
  void write(Work work, Done done);
  void read(Work work);  // outside any transaction: for queries

  // Runs everything queued so far, then ends the thread. Idempotent.
  void stop();

  // False while commits keep failing for a reason that may pass (a full disk, a lock
  // held elsewhere, an I/O error); tables refuse new moves meanwhile.
  bool healthy() const { return healthy_.load(std::memory_order_relaxed); }

 private:
  struct Job {
    Work work;
    Done done;  // empty for a read
  };

  void run();
  void commit(std::vector<Job>& writes);

  std::unique_ptr<db::Database> database_;
  std::unique_ptr<db::Store> store_;
  std::shared_ptr<Metrics> metrics_;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  std::atomic<bool> healthy_{true};
  std::thread thread_;
};

}  // namespace elgrande::server
