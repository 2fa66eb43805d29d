#include "cluster/leadership.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <utility>

#include "common/unix_time.hpp"
#include "identity/identities.hpp"

namespace elgrande::server {
Leadership::Leadership(const std::string& database_url, std::string process, bool lapse_when_silent)
    : connection_(db::open(database_url, {.idle_session_limit_ms = lapse_when_silent ? 10'000 : 0})),
      lease_(*connection_),
      process_(std::move(process)),
      peer_key_(new_token()) {}

bool Leadership::try_lead(std::chrono::milliseconds wait) {
  const std::lock_guard guard(mutex_);
  if (epoch_ != 0) return true;
  if (!lease_.try_lock(wait)) return false;
  for (;;) {
    try {
      epoch_ = lease_.take_over(process_, unix_milliseconds());
      return true;
    } catch (const db::Error& error) {
      if (!error.transient()) throw;
      spdlog::warn("taking over as leader: {}; trying again", error.what());
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
}

void Leadership::announce(const std::string& address) {
  const std::lock_guard guard(mutex_);
  lease_.announce(epoch_.load(), address, peer_key_);
}

std::optional<db::LeaderLease::Leader> Leadership::leader() {
  const std::lock_guard guard(mutex_);
  return lease_.leader();
}

bool Leadership::still_leading() {
  const std::lock_guard guard(mutex_);
  try {
    return lease_.holds_lock();
  } catch (const db::Error&) {
    return false;
  }
}

void Leadership::resign() {
  const std::lock_guard guard(mutex_);
  if (epoch_ == 0) return;
  try {
    lease_.announce(epoch_.load(), "", "");
    lease_.unlock();
  } catch (const db::Error& error) {
    spdlog::warn("letting go of the leader's lock: {}", error.what());
  }
  epoch_ = 0;
}

std::function<void(db::Database&)> Leadership::fence() const {
  return [epoch = epoch_.load()](db::Database& database) { db::LeaderLease::require_epoch(database, epoch); };
}

std::function<void(db::Database&)> Leadership::confirm_fence() const {
  return [epoch = epoch_.load()](db::Database& database) {
    if (!db::LeaderLease::current_epoch(database, epoch)) {
      step_down("another process took over as leader (epoch " + std::to_string(epoch) + " is over)");
    }
  };
}

void step_down(const std::string& why) {
  spdlog::critical("no longer the leader: {}; stopping at once (exit 75)", why);
  spdlog::shutdown();
  std::_Exit(75);
}

}  // namespace elgrande::server
