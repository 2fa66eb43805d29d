#include "cluster/leadership.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <utility>

#include "common/unix_time.hpp"

namespace elgrande::server {
namespace {

// One lock per database schema, so that test servers on schemas of one database do not meet.
constexpr const char* kLockKey = "hashtext('elgrande-server leader ' || current_schema())";

}  // namespace

Leadership::Leadership(const std::string& database_url, std::string process, bool lapse_when_silent)
    : connection_(database_url, db::OpenOptions{.idle_session_limit_ms = lapse_when_silent ? 10'000 : 0}),
      process_(std::move(process)) {}

bool Leadership::try_lead() {
  const std::lock_guard guard(mutex_);
  if (epoch_ != 0) return true;
  db::Statement lock = connection_.prepare(std::string("SELECT pg_try_advisory_lock(") + kLockKey + ")");
  if (!lock.step() || lock.integer(0) == 0) return false;
  // The update waits for the commits of the leader before, which hold the row (fence()).
  for (;;) {
    try {
      db::Transaction transaction(connection_);
      db::Statement bump = connection_.prepare(
          "INSERT INTO leader (id, epoch, process, address, since) VALUES (1, 1, ?1, '', ?2) "
          "ON CONFLICT (id) DO UPDATE SET epoch = leader.epoch + 1, process = excluded.process, address = '', "
          "since = excluded.since RETURNING epoch");
      bump.bind(1, process_).bind(2, unix_milliseconds());
      bump.step();
      const std::int64_t epoch = bump.integer(0);
      bump.reset();
      transaction.commit();
      epoch_ = epoch;
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
  connection_.prepare("UPDATE leader SET address = ?2 WHERE id = 1 AND epoch = ?1").bind(1, epoch_.load()).bind(2, address).run();
}

std::optional<std::string> Leadership::leader_address() {
  const std::lock_guard guard(mutex_);
  db::Statement row = connection_.prepare("SELECT address FROM leader WHERE id = 1");
  if (!row.step() || row.text(0).empty()) return std::nullopt;
  return row.text(0);
}

bool Leadership::still_leading() {
  const std::lock_guard guard(mutex_);
  try {
    db::Statement held = connection_.prepare(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted");
    return held.step() && held.integer(0) > 0;
  } catch (const db::Error&) {
    return false;
  }
}

void Leadership::resign() {
  const std::lock_guard guard(mutex_);
  if (epoch_ == 0) return;
  try {
    connection_.prepare("UPDATE leader SET address = '' WHERE id = 1 AND epoch = ?1").bind(1, epoch_.load()).run();
    connection_.prepare(std::string("SELECT pg_advisory_unlock(") + kLockKey + ")").step();
  } catch (const db::Error& error) {
    spdlog::warn("letting go of the leader's lock: {}", error.what());
  }
  epoch_ = 0;
}

std::function<void(db::Database&)> Leadership::fence() const {
  return [epoch = epoch_.load()](db::Database& database) {
    db::Statement row = database.prepare("SELECT 1 FROM leader WHERE id = 1 AND epoch = ?1 FOR SHARE");
    row.bind(1, epoch);
    if (!row.step()) step_down("another process took over as leader (epoch " + std::to_string(epoch) + " is over)");
  };
}

void step_down(const std::string& why) {
  spdlog::critical("no longer the leader: {}; stopping at once (exit 75)", why);
  spdlog::shutdown();
  std::_Exit(75);
}

}  // namespace elgrande::server
