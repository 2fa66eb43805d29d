#include "storage/checkpointer.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <stdexcept>
#include <utility>

namespace elgrande::server {

Checkpointer::Checkpointer(db::Database& writer, const std::string& location, db::Durability durability,
                           std::shared_ptr<Metrics> metrics)
    : database_(db::open(location, {.create = false, .durability = durability})), metrics_(std::move(metrics)) {
  const bool handed_off = writer.hand_off_checkpoints(
      [signal = signal_](int log_pages) noexcept {
        if (log_pages < kLogPages) return;
        try {
          {
            const std::lock_guard lock(signal->mutex);
            signal->due = true;
          }
          signal->wake.notify_one();
        } catch (...) {  // a mutex that fails: the ceiling still bounds the log
        }
      },
      kCeiling);
  if (!handed_off) throw std::logic_error(writer.describe() + " keeps no write-ahead log to copy back");
  thread_ = std::thread([this] { run(); });
}

Checkpointer::~Checkpointer() { stop(); }

void Checkpointer::stop() {
  {
    const std::lock_guard lock(signal_->mutex);
    signal_->stopping = true;
  }
  signal_->wake.notify_one();
  if (thread_.joinable()) thread_.join();
}

void Checkpointer::run() {
  bool failing = false;
  for (;;) {
    {
      std::unique_lock lock(signal_->mutex);
      // After a failure, not again at once: a commit every millisecond would ask again.
      if (failing) signal_->wake.wait_for(lock, kRetryAfterFailure, [this] { return signal_->stopping; });
      signal_->wake.wait(lock, [this] { return signal_->stopping || signal_->due; });
      if (signal_->stopping) return;
      signal_->due = false;
    }
    const auto started = std::chrono::steady_clock::now();
    try {
      database_->checkpoint();
      metrics_->db_checkpoints.fetch_add(1, std::memory_order_relaxed);
      metrics_->checkpoint_latency.observe(std::chrono::steady_clock::now() - started);
      if (std::exchange(failing, false)) spdlog::info("the write-ahead log is copied into the database again");
    } catch (const db::Error& error) {
      // Meanwhile the log only grows, to the ceiling at most; nothing committed is at risk.
      if (!std::exchange(failing, true)) {
        spdlog::warn("copying the write-ahead log into the database failed, retrying: {}", error.what());
      }
    }
  }
}

}  // namespace elgrande::server
