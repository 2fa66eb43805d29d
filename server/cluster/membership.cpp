#include "cluster/membership.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <utility>

#include "common/unix_time.hpp"
#include "common/wait_or_stop.hpp"
#include "elgrande/db/processes.hpp"
#include "ops/log_throttle.hpp"

namespace elgrande::server {

Membership::Membership(const std::string& database_url, std::string process)
    : connection_(db::open(database_url, {.idle_session_limit_ms = 10'000})), process_(std::move(process)) {}

Membership::~Membership() {
  if (!watch_.joinable()) return;
  watch_.request_stop();
  watch_.join();
  // A clean stop: the others need not wait for PostgreSQL to notice.
  const std::lock_guard lock(mutex_);
  try {
    db::leave_processes(*connection_, process_);
  } catch (const db::Error& error) {
    spdlog::warn("leaving the processes' list: {}", error.what());
  }
}

void Membership::join(const std::string& address) {
  if (watch_.joinable()) return;
  try {
    const std::lock_guard lock(mutex_);
    address_ = address;
    db::join_processes(*connection_, process_, address_, unix_milliseconds());
    spdlog::info("process {} joined the processes on this database, at {}", process_, address);
  } catch (const std::exception& error) {
    // Serving goes on; the watch joins at its next look.
    spdlog::error("joining the processes' list: {}; trying again", error.what());
  }
  watch_ = std::jthread([this](std::stop_token stop) {
    LogThrottle failures(std::chrono::seconds(10));
    while (wait_or_stop(stop, std::chrono::seconds(1))) {
      try {
        keep_up();
      } catch (const std::exception& error) {
        if (failures.occurred(std::chrono::steady_clock::now())) {
          spdlog::error("keeping this process in the processes' list: {}", error.what());
        }
      }
    }
  });
}

void Membership::keep_up() {
  const std::lock_guard lock(mutex_);
  if (!db::holds_membership(*connection_, process_)) {
    // Its connection was lost and opened again: to the others it was gone meanwhile.
    db::join_processes(*connection_, process_, address_, unix_milliseconds());
    spdlog::warn("process {} lost its place in the processes' list with its connection, and joined again", process_);
  }
  if (drain_ && db::draining(*connection_, process_)) {
    spdlog::info("process {} was asked to drain", process_);
    std::exchange(drain_, nullptr)();
  }
  if (!coordinating_) return;
  for (const std::string& gone : db::remove_gone_processes(*connection_)) {
    spdlog::warn("process {} is gone (its lock on the database was let go): removed from the processes' list", gone);
  }
}

}  // namespace elgrande::server
