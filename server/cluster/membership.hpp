#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "elgrande/db/database.hpp"

namespace elgrande::server {

// This process's place among the server processes sharing one PostgreSQL database
// (docs/scaling.md): its row in `processes`, live while the advisory lock on its id is
// held by a connection of its own (elgrande/db/processes.hpp). PostgreSQL ends that
// connection, and so the lock, with the process, with its link, or once it has been silent
// for 10 s (a process stopped by SIGSTOP or a stalled machine); the coordinator then
// removes the row. Later, the coordinator moves a gone process's tables (issue 47).
class Membership {
 public:
  Membership(const std::string& database_url, std::string process);
  ~Membership();  // leaves, if it joined
  Membership(const Membership&) = delete;
  Membership& operator=(const Membership&) = delete;

  // Once it listens: registers with the address where the others reach it, then once a
  // second, on a thread of its own, keeps its connection from falling silent, registers
  // again if that connection was lost, and, while it coordinates, removes the rows of the
  // processes that are gone. Later calls change nothing.
  void join(const std::string& address);
  // From now on this process is the coordinator (it leads).
  void coordinate() { coordinating_ = true; }
  // Runs once, on the membership's thread, when an operator asks this process to drain
  // (elgrande-server --drain).
  void on_drain(std::function<void()> drain) { drain_ = std::move(drain); }

 private:
  void keep_up();

  std::mutex mutex_;  // the connection is used by one thread at a time
  std::unique_ptr<db::Database> connection_;
  const std::string process_;
  std::string address_;
  std::atomic<bool> coordinating_ = false;
  std::function<void()> drain_;  // set before join
  std::jthread watch_;
};

}  // namespace elgrande::server
