#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <thread>

#include "elgrande/db/commit_sequence.hpp"
#include "elgrande/db/database.hpp"
#include "elgrande/db/store.hpp"
#include "ops/metrics.hpp"
#include "storage/commit_ledger.hpp"

namespace elgrande::server {

// The server's writing database connection, on a thread of its own: SQLite blocks, and
// nothing that blocks may run on the I/O threads. Writes that queue up while a commit is
// on its way to the disk go into the next transaction together (group commit), so one
// sync to the disk covers the moves of many tables, and no write is reported done before
// its transaction has committed. Reads go to a Reader, on connections of their own.
class Storage {
 public:
  using Work = std::function<void(db::Store&)>;
  // Runs on the database thread once the write is committed (true) or abandoned (false);
  // it should only post to the strand that waits for it.
  using Done = std::function<void(bool committed)>;
  // Whose writes must commit in the order they were asked for, without a gap: a table's
  // id, or kNoStream for writes that stand alone (a new identity, a rename).
  using Stream = std::int64_t;
  static constexpr Stream kNoStream = 0;

  // A process of several on one database proves in every transaction that it still leads
  // and still owns the tables it writes, given their streams (cluster/table_claims.hpp):
  // `check` runs first in each and makes it fail if not, and after a failed commit,
  // `confirm` asks outright (and ends the process, or lets the tables it lost go, if that
  // was why).
  // `epoch_of` gives the epoch a table's commands are recorded with (db::Store::record_epochs).
  struct Fence {
    std::function<void(db::Database&, std::span<const Stream> streams)> check;
    std::function<void(db::Database&, std::span<const Stream> streams)> confirm;
    db::Store::EpochOf epoch_of;
  };

  // Under load, a write waits for company until `commit_delay` after it was asked for (the
  // oldest of those waiting, so no write waits longer than that for others), so that more
  // writes share one sync to the disk: a sync costs about the same CPU for one write as
  // for fifty (~150 µs on the development VM), far more than a write itself. Time spent
  // behind the commit under way counts. "Under load" is when the last transaction
  // carried at least kCommitSiblings writes (as PostgreSQL's commit_delay and
  // commit_siblings): a write that comes alone is committed at once, so a quiet server
  // answers as fast as it did without the delay. Two, not more: paced at 2,000 commands/s
  // a commit took so little time that few carried four, and each command paid a sync of
  // its own (docs/performance.md, step 10).
  static constexpr std::size_t kCommitSiblings = 2;
  // Nor does a commit wait once this many writes share it: the sync's share of each is
  // already small, and at saturation a wait would only slow the tables down.
  static constexpr std::size_t kFullCommit = 16;

  // Takes over the connection, which must be migrated already. Past `max_pending` writes
  // waiting, accepting() turns false until the queue drains. Given a ledger (SQLite), every
  // transaction counts itself in the database's commit sequence, and the ledger records
  // the count once it is committed (storage/commit_ledger.hpp).
  Storage(std::unique_ptr<db::Database> database, std::shared_ptr<Metrics> metrics,
          std::size_t max_pending = 100'000, Fence fence = {},
          std::chrono::microseconds commit_delay = std::chrono::microseconds{0},
          std::unique_ptr<CommitLedger> ledger = nullptr);
  ~Storage();  // stop()
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  // Callable from any thread. Writes commit in the order they were asked for. Once a
  // write of a stream is abandoned, every later write of that stream is abandoned too, so
  // that a table's log never commits past a gap.
  void write(Stream stream, Work work, Done done);
  void write(Work work, Done done) { write(kNoStream, std::move(work), std::move(done)); }

  // Runs on the database thread after each commit, once the writes' callbacks have run: for a
  // quick nudge (the notice sender's, after a transaction wrote a notice). Set while no write
  // is under way (at start, before the first); kept until the storage is destroyed.
  void on_commit(std::function<void()> hook) { after_commit_ = std::move(hook); }

  // Runs everything queued so far, then ends the thread. Idempotent.
  void stop();

  // False while commits keep failing for a reason that may pass (a full disk, a lock
  // held elsewhere, an I/O error).
  bool healthy() const { return healthy_.load(std::memory_order_relaxed); }
  // Whether a new change should be taken at all: healthy, the queue not too long, and no
  // commit stuck for longer than kStalled (a lock held elsewhere, a disk that hangs).
  // Everyone who changes something asks first and refuses with `unavailable` otherwise,
  // so that an outage neither grows the queue without bound nor loses anything.
  bool accepting() const;
  static constexpr std::chrono::milliseconds kStalled{1000};
  std::size_t pending() const { return pending_.load(std::memory_order_relaxed); }
  // Why changes are not taken, in words for an operator (the readiness answer): commits
  // failing and since when, a commit stuck, or the queue full. Nothing while they are.
  std::optional<std::string> why_not_accepting() const;

 private:
  struct Job {
    Stream stream;
    Work work;
    Done done;
  };

  void run();
  void commit(std::vector<Job>& writes);
  // When stopping: the command ring copied into the tables' logs (db::Store::settle_log).
  void settle_log();
  void finish(Job& job, bool committed);
  bool stopping();
  void note_failure(const std::string& reason);
  // First in each transaction: the fence's check for the streams written and the
  // commit's number; and once it has committed.
  void start_commit(std::span<const Stream> streams);
  void counted_commit() noexcept;
  // After a failed commit: what the fence does if it refused it.
  void confirm_fence(std::span<const Stream> streams) noexcept;

  std::unique_ptr<db::Database> database_;
  std::unique_ptr<db::Store> store_;
  std::shared_ptr<Metrics> metrics_;
  const std::size_t max_pending_;
  const Fence fence_;
  const std::chrono::microseconds commit_delay_;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  std::chrono::steady_clock::time_point oldest_waiting_;  // when the first write in queue_ was asked for
  bool stopping_ = false;
  std::atomic<bool> healthy_{true};
  std::atomic<std::size_t> pending_{0};
  // When the commit under way started (steady clock ticks), 0 when none is.
  std::atomic<std::int64_t> committing_since_{0};
  // The last passing failure, and when the failures began: set before healthy_ turns false.
  mutable std::mutex failure_mutex_;
  std::string last_failure_;
  std::chrono::system_clock::time_point failing_since_;
  std::set<Stream> abandoned_;  // streams with a lost write; database thread only
  std::unique_ptr<CommitLedger> ledger_;
  std::function<void()> after_commit_;
  std::optional<db::CommitSequence> sequence_;  // with a ledger
  std::int64_t committed_ = 0;                  // the sequence as last committed
  std::thread thread_;
};

}  // namespace elgrande::server
