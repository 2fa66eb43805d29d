#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// The statements of leading a cluster of server processes on one PostgreSQL database
// (docs/scaling.md): an advisory lock held by a connection of its own, which PostgreSQL lets
// go when that connection ends, and the `leader` row whose epoch fences the commits of a
// leader that lost the lock (write_fence.hpp says how). One lock per database schema, so that test servers on schemas
// of one database do not meet. The policy (when to try, what to do on losing) is the
// server's (server/cluster/leadership). Not locked: its owner uses it from one thread at a time.
class LeaderLease {
 public:
  explicit LeaderLease(Database& connection) : connection_(connection) {}

  // Takes the lock if nobody holds it, waiting for it up to `wait`: PostgreSQL grants it to
  // a waiter the moment its holder's connection ends, so a process that waits learns of a
  // leader's end at once rather than at its next try.
  bool try_lock(std::chrono::milliseconds wait = std::chrono::milliseconds{0});
  // Whether this connection still holds it (a connection opened again would not).
  bool holds_lock();
  void unlock();

  // In its own transaction, after the lock is taken: one more than the last leader's epoch,
  // with who leads now and since when; waits for the transactions of the leader before
  // under way (write_fence.hpp). Returns the new epoch.
  std::int64_t take_over(const std::string& process, std::int64_t now);
  // Where the leader can be reached, and the key its peer links take: set once it
  // listens, cleared when it lets go.
  void announce(std::int64_t epoch, const std::string& address, const std::string& peer_key);
  struct Leader {
    std::string address;   // host:port
    std::string peer_key;  // empty: written before peer links
  };
  std::optional<Leader> leader();

  // In a leader's transaction, after hold_writes (write_fence.hpp), sent without waiting
  // for its answer: fails the transaction unless `epoch` still leads.
  static void require_epoch(Database& database, std::int64_t epoch);
  // Whether `epoch` still leads, asked outright (after a commit failed).
  static bool current_epoch(Database& database, std::int64_t epoch);

 private:
  Database& connection_;
};

}  // namespace elgrande::db
