#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include <string>

#include "elgrande/db/database.hpp"
#include "ops/metrics.hpp"

namespace elgrande::server {

// Copies SQLite's write-ahead log back into the database file on a thread and a
// connection of its own, so that no commit waits for it. Left to SQLite, the commit that
// takes the log past 1,000 pages copies them and syncs the file, and the moves of every
// table waiting for that commit wait with it: paced at 5,000 commands/s, about one commit
// in a hundred took 2.5-25 ms instead of under one (docs/performance.md, step 9). Here
// the checkpoint runs beside the commits: a passive one, which waits for no lock, so the
// writer never waits for it either. Once it has copied the whole log, the next commit
// starts the log afresh.
class Checkpointer {
 public:
  // SQLite's own threshold: a log this long is copied back.
  static constexpr int kLogPages = 1000;
  // Past this, the writer copies the log itself in its commit, as SQLite would: this
  // thread has fallen behind, or a reader holds an old snapshot.
  static constexpr int kCeiling = 16 * kLogPages;
  // After a checkpoint fails (logged once until one succeeds), the next waits this long.
  static constexpr std::chrono::seconds kRetryAfterFailure{1};

  // Opens a connection of its own to `location`, the writer's SQLite file, and takes the
  // writer's checkpoints over.
  Checkpointer(db::Database& writer, const std::string& location, db::Durability durability,
               std::shared_ptr<Metrics> metrics);
  ~Checkpointer();  // stop()
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // Ends the thread; a checkpoint under way finishes first. Idempotent. The writer may go
  // on committing: what it logs is copied back when the last connection closes.
  void stop();

 private:
  // Shared with the writer's hook, which may outlive this object.
  struct Signal {
    std::mutex mutex;
    std::condition_variable wake;
    bool due = false;
    bool stopping = false;
  };

  void run();

  std::unique_ptr<db::Database> database_;
  std::shared_ptr<Metrics> metrics_;
  std::shared_ptr<Signal> signal_ = std::make_shared<Signal>();
  std::thread thread_;
};

}  // namespace elgrande::server
