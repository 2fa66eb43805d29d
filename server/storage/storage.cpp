#include "storage/storage.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

namespace elgrande::server {
namespace {

using Clock = std::chrono::steady_clock;

// Between attempts at a commit that failed for a passing reason; doubled up to the cap.
constexpr std::chrono::milliseconds kFirstRetry{50};
constexpr std::chrono::milliseconds kLongestRetry{2000};
// At shutdown a failing commit is tried this long, then its moves are given up (they
// were never acknowledged to anyone).
constexpr std::chrono::seconds kShutdownPatience{10};

}  // namespace

Storage::Storage(std::unique_ptr<db::Database> database, std::shared_ptr<Metrics> metrics,
                 std::size_t max_pending, Fence fence, std::chrono::microseconds commit_delay,
                 std::unique_ptr<CommitLedger> ledger)
    : database_(std::move(database)),
      store_([this, &fence] {
        auto store = std::make_unique<db::Store>(*database_);
        store->hold_log_writes(true);  // flushed before each commit
        store->record_epochs(fence.epoch_of);
        return store;
      }()),
      metrics_(std::move(metrics)),
      max_pending_(max_pending),
      fence_(std::move(fence)),
      commit_delay_(commit_delay),
      ledger_(std::move(ledger)),
      sequence_(ledger_ ? std::optional<db::CommitSequence>(std::in_place, *database_) : std::nullopt),
      committed_(sequence_ ? sequence_->read() : 0),
      thread_([this] { run(); }) {}

Storage::~Storage() { stop(); }

void Storage::write(Stream stream, Work work, Done done) {
  pending_.fetch_add(1, std::memory_order_relaxed);
  {
    const std::lock_guard lock(mutex_);
    if (queue_.empty()) oldest_waiting_ = Clock::now();
    queue_.push_back(Job{stream, std::move(work), done ? std::move(done) : Done([](bool) {})});
    // The thread waits for the first write, and under load for the one that fills a
    // commit; the others need not wake it.
    if (queue_.size() != 1 && queue_.size() != kFullCommit) return;
  }
  wake_.notify_one();
}

bool Storage::accepting() const {
  if (!healthy() || pending_.load(std::memory_order_relaxed) >= max_pending_) return false;
  const std::int64_t since = committing_since_.load(std::memory_order_relaxed);
  return since == 0 || Clock::now().time_since_epoch().count() - since < Clock::duration(kStalled).count();
}

std::optional<std::string> Storage::why_not_accepting() const {
  if (!healthy()) {
    const std::lock_guard lock(failure_mutex_);
    const std::time_t since = std::chrono::system_clock::to_time_t(failing_since_);
    std::tm utc{};
    gmtime_r(&since, &utc);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
    const auto lasted =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now() - failing_since_);
    return "database commits failing since " + std::string(when) + " (" + std::to_string(lasted.count()) +
           " s), retrying: " + last_failure_;
  }
  const std::size_t waiting = pending();
  if (waiting >= max_pending_) {
    return "write queue full: " + std::to_string(waiting) + " writes waiting (limit " + std::to_string(max_pending_) +
           ")";
  }
  const std::int64_t since = committing_since_.load(std::memory_order_relaxed);
  if (since == 0) return std::nullopt;
  const auto stuck = Clock::now().time_since_epoch() - Clock::duration(since);
  if (stuck < kStalled) return std::nullopt;
  return "a database commit has been under way for " +
         std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(stuck).count()) +
         " ms (a lock held by another program, or a disk that hangs)";
}

void Storage::note_failure(const std::string& reason) {
  const std::lock_guard lock(failure_mutex_);
  if (healthy()) failing_since_ = std::chrono::system_clock::now();
  last_failure_ = reason;
}

void Storage::stop() {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

bool Storage::stopping() {
  const std::lock_guard lock(mutex_);
  return stopping_;
}

void Storage::run() {
  std::size_t last_batch = 0;
  for (;;) {
    std::vector<Job> batch;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) break;  // stopping, and nothing left to do
      if (commit_delay_.count() > 0 && last_batch >= kCommitSiblings) {
        // Only the write that fills the commit wakes this thread early (write()).
        wake_.wait_until(lock, oldest_waiting_ + commit_delay_,
                         [this] { return stopping_ || queue_.size() >= kFullCommit; });
      }
      batch.assign(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
      queue_.clear();
    }
    last_batch = batch.size();
    commit(batch);
  }
  settle_log();
}

void Storage::settle_log() {
  try {
    db::Transaction transaction(*database_);
    start_commit({});
    store_->settle_log();
    transaction.commit();
    counted_commit();
  } catch (const std::exception& error) {
    store_->forget_log_ring();
    confirm_fence({});
    spdlog::warn("the newest commands stay in the command ring, for the next start to copy: {}", error.what());
  }
}

void Storage::start_commit(std::span<const Stream> streams) {
  if (fence_.check) fence_.check(*database_, streams);
  if (sequence_) sequence_->write(committed_ + 1);
}

void Storage::confirm_fence(std::span<const Stream> streams) noexcept {
  if (!fence_.confirm) return;
  try {
    fence_.confirm(*database_, streams);
  } catch (const std::exception&) {  // the database cannot be asked: the commit's own failure is reported
  }
}

void Storage::counted_commit() noexcept {
  if (!sequence_) return;
  ++committed_;
  ledger_->record(committed_);
}

void Storage::finish(Job& job, bool committed) {
  if (!committed && job.stream != kNoStream) abandoned_.insert(job.stream);
  pending_.fetch_sub(1, std::memory_order_relaxed);
  job.done(committed);
}

void Storage::commit(std::vector<Job>& writes) {
  // A stream that lost a write loses every later one: committing them would leave a gap.
  std::erase_if(writes, [this](Job& job) {
    if (job.stream == kNoStream || !abandoned_.contains(job.stream)) return false;
    finish(job, false);
    return true;
  });
  if (writes.empty()) return;
  const auto started = Clock::now();
  committing_since_.store(started.time_since_epoch().count(), std::memory_order_relaxed);
  // However it ends, the commit is no longer under way.
  struct Finished {
    std::atomic<std::int64_t>& since;
    ~Finished() { since.store(0, std::memory_order_relaxed); }
  } finished{committing_since_};
  std::vector<Stream> streams;
  streams.reserve(writes.size());
  for (const Job& job : writes) streams.push_back(job.stream);
  auto wait = kFirstRetry;
  for (;;) {
    try {
      db::Transaction transaction(*database_);
      start_commit(streams);
      for (Job& job : writes) job.work(*store_);
      store_->flush_log();
      transaction.commit();
      counted_commit();
      break;
    } catch (const db::Error& error) {
      store_->forget_log_ring();  // what it knew may be what the transaction undid
      confirm_fence(streams);
      metrics_->db_errors.fetch_add(1, std::memory_order_relaxed);
      if (error.transient() && !(stopping() && Clock::now() - started > kShutdownPatience)) {
        note_failure(error.what());
        if (healthy_.exchange(false)) spdlog::error("database write failed, retrying: {}", error.what());
        std::this_thread::sleep_for(wait);
        wait = std::min(wait * 2, kLongestRetry);
        continue;
      }
      spdlog::critical("database write failed for good: {}", error.what());
    } catch (const std::exception& error) {
      // A write that throws on its own (a bug): the others must not go down with it.
      store_->forget_log_ring();
      spdlog::critical("database write failed: {}", error.what());
    }
    // Give each write its own transaction, so only the failing ones are lost, and nothing
    // of a stream after its first loss.
    for (Job& job : writes) {
      bool committed = false;
      if (job.stream == kNoStream || !abandoned_.contains(job.stream)) {
        try {
          db::Transaction transaction(*database_);
          start_commit(std::span(&job.stream, 1));
          job.work(*store_);
          store_->flush_log();
          transaction.commit();
          counted_commit();
          committed = true;
        } catch (const std::exception& error) {
          store_->forget_log_ring();
          spdlog::critical("a write{} is abandoned: {}",
                           job.stream == kNoStream ? "" : " of table " + std::to_string(job.stream),
                           error.what());
        }
      }
      finish(job, committed);
    }
    if (after_commit_) after_commit_();
    return;
  }
  if (!healthy_.exchange(true)) spdlog::info("database writes succeed again");
  metrics_->db_commits.fetch_add(1, std::memory_order_relaxed);
  metrics_->db_writes.fetch_add(writes.size(), std::memory_order_relaxed);
  metrics_->commit_latency.observe(Clock::now() - started);
  // No longer under way before anyone hears of it: a request sent on the news of a long
  // commit (one that waited out a lock) must find storage accepting again.
  committing_since_.store(0, std::memory_order_relaxed);
  for (Job& job : writes) finish(job, true);
  if (after_commit_) after_commit_();
}

}  // namespace elgrande::server
