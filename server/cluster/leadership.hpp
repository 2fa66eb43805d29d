#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "elgrande/db/leader_lease.hpp"
#include "elgrande/db/database.hpp"

namespace elgrande::server {

// Which of the server processes on one PostgreSQL database leads (docs/scaling.md): the
// leader holds every table, turn clock, bot, tournament and rating, as a lone server does;
// the others forward their clients to it. Leading is an advisory lock held by a connection
// of its own, which PostgreSQL lets go when that connection ends, however the process ends.
// Taking over adds one to the epoch in the `leader` row, after the writes of the leader
// before have ended; every commit of a leader first checks its epoch (fence()), so a leader
// that lost the lock without knowing it can commit nothing more. Callable from any thread.
class Leadership {
 public:
  // `process`: how operators tell the processes apart (host name and pid). With
  // `lapse_when_silent` (a server's), PostgreSQL ends the lock's connection, and so lets go
  // of the lock, once it has been silent for 10 s: a leader uses it every second and the
  // others more often, so only a process that stopped (SIGSTOP, a stalled machine) loses
  // it that way.
  Leadership(const std::string& database_url, std::string process, bool lapse_when_silent = false);

  // Tries to lead, waiting up to `wait` for the lock; true once this process holds it and
  // the new epoch is committed.
  bool try_lead(std::chrono::milliseconds wait = std::chrono::milliseconds{0});
  bool leading() const { return epoch_ != 0; }
  const std::string& process() const { return process_; }
  std::int64_t epoch() const { return epoch_; }

  // The leader, once it listens: tells the others where to relay their clients, and the
  // key their peer links present.
  void announce(const std::string& address);
  // Where the leader can be reached and with what key, if one leads and has announced it
  // (for the others).
  std::optional<db::LeaderLease::Leader> leader();
  std::optional<std::string> leader_address() {
    auto found = leader();
    return found ? std::optional(found->address) : std::nullopt;
  }
  // What the others present to this process's peer links while it leads: random, new
  // with each process.
  const std::string& peer_key() const { return peer_key_; }

  // Whether this connection still holds the lock (a connection opened again would not).
  bool still_leading();

  // A leader that stops cleanly lets go of the lock and its address at once, rather than
  // when PostgreSQL sees its connection end: a process restarted in its place then leads at
  // its first try, instead of waiting on the lock. Errors are ignored: the lock goes with
  // the connection anyway.
  void resign();

  // Runs first in every transaction of the leader's database thread, without waiting for
  // an answer: the transaction fails once another process has taken over.
  std::function<void(db::Database&)> fence() const;
  // After a commit failed: ends the process, whose clients go to the new leader, if the
  // fence was why.
  std::function<void(db::Database&)> confirm_fence() const;

 private:
  std::mutex mutex_;  // the connection is used by one thread at a time
  std::unique_ptr<db::Database> connection_;  // PostgreSQL's: the lease is its advisory lock
  db::LeaderLease lease_;  // its statements, on connection_
  const std::string process_;
  const std::string peer_key_;
  std::atomic<std::int64_t> epoch_ = 0;
};

// Ends a leader that learns another process leads: whatever it would still send, it could
// not save. Its clients reconnect, to the new leader through any process.
[[noreturn]] void step_down(const std::string& why);

}  // namespace elgrande::server
