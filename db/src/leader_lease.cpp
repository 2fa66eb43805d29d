#include "elgrande/db/leader_lease.hpp"

#include "elgrande/db/write_fence.hpp"

namespace elgrande::db {
namespace {

constexpr const char* kLockKey = "hashtext('elgrande-server leader ' || current_schema())";

}  // namespace

bool LeaderLease::try_lock(std::chrono::milliseconds wait) {
  if (wait.count() <= 0) {
    Statement lock = connection_.prepare(std::string("SELECT pg_try_advisory_lock(") + kLockKey + ")");
    return lock.step() && lock.integer(0) != 0;
  }
  // The wait bounded by a lock_timeout of this transaction alone; the lock, a session's,
  // outlives it. One round trip.
  try {
    Transaction waiting(connection_);
    connection_.prepare("SELECT set_config('lock_timeout', ?1, true)").bind(1, std::to_string(wait.count()) + "ms").send();
    connection_.prepare(std::string("SELECT pg_advisory_lock(") + kLockKey + ")").send();
    waiting.commit();
    return true;
  } catch (const Error& error) {
    if (error.kind() == Error::Kind::busy) return false;  // held all along
    throw;
  }
}

bool LeaderLease::holds_lock() {
  Statement held = connection_.prepare(
      "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted");
  return held.step() && held.integer(0) > 0;
}

void LeaderLease::unlock() { connection_.prepare(std::string("SELECT pg_advisory_unlock(") + kLockKey + ")").step(); }

std::int64_t LeaderLease::take_over(const std::string& process, std::int64_t now) {
  Transaction transaction(connection_);
  Statement before = connection_.prepare("SELECT process FROM leader WHERE id = 1 FOR UPDATE");
  if (before.step()) wait_for_writes(connection_, before.text(0));
  before.reset();
  Statement bump = connection_.prepare(
      "INSERT INTO leader (id, epoch, process, address, since) VALUES (1, 1, ?1, '', ?2) "
      "ON CONFLICT (id) DO UPDATE SET epoch = leader.epoch + 1, process = excluded.process, address = '', "
      "since = excluded.since RETURNING epoch");
  bump.bind(1, process).bind(2, now);
  bump.step();
  const std::int64_t epoch = bump.integer(0);
  bump.reset();
  transaction.commit();
  return epoch;
}

void LeaderLease::announce(std::int64_t epoch, const std::string& address, const std::string& peer_key) {
  connection_.prepare("UPDATE leader SET address = ?2, peer_key = ?3 WHERE id = 1 AND epoch = ?1")
      .bind(1, epoch)
      .bind(2, address)
      .bind(3, peer_key)
      .run();
}

std::optional<LeaderLease::Leader> LeaderLease::leader() {
  Statement row = connection_.prepare("SELECT address, peer_key FROM leader WHERE id = 1");
  if (!row.step() || row.text(0).empty()) return std::nullopt;
  return Leader{row.text(0), row.text(1)};
}

void LeaderLease::require_epoch(Database& database, std::int64_t epoch) {
  // An error, not an empty answer, so that the commit's own answer carries it: a failed
  // statement aborts the rest of the pipeline, COMMIT included. The text is the error's.
  database
      .prepare("SELECT CAST(CASE WHEN EXISTS (SELECT FROM leader WHERE id = 1 AND epoch = ?1) "
               "THEN '1' ELSE 'another process took over as leader' END AS BIGINT)")
      .bind(1, epoch)
      .send();
}

bool LeaderLease::current_epoch(Database& database, std::int64_t epoch) {
  Statement row = database.prepare("SELECT 1 FROM leader WHERE id = 1 AND epoch = ?1");
  row.bind(1, epoch);
  return row.step();
}

}  // namespace elgrande::db
