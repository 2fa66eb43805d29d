#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// The server processes sharing one PostgreSQL database (docs/scaling.md): a row each in
// `processes`, and an advisory lock each on its id, held by a connection of the process's
// own. PostgreSQL lets a lock go when its connection ends, however the process ended, so a
// row whose lock nobody holds is a process that is gone. PostgreSQL only.
struct ProcessRow {
  std::string id;
  std::string address;
  std::int64_t registered = 0;
  bool draining = false;
  bool live = false;  // its lock is held
};

// On the process's own connection, outside a transaction: takes its lock, kept until the
// connection ends or it leaves, then writes its row (again, if it was there).
void join_processes(Database& connection, const std::string& process, const std::string& address,
                    std::int64_t now);
// Whether this connection holds the process's lock (one opened again after a loss does not).
bool holds_membership(Database& connection, const std::string& process);
// The row and the lock go (a process that stops cleanly).
void leave_processes(Database& connection, const std::string& process);

// Marks the process named by its id or its address as draining (elgrande-server --drain);
// the ids marked.
std::vector<std::string> drain_process(Database& database, const std::string& id_or_address);
// Whether an operator asked `process` to drain.
bool draining(Database& database, const std::string& process);

// Every row, oldest first, with whether it is live.
std::vector<ProcessRow> processes(Database& database);
// Removes the rows of the processes that are gone; their ids.
std::vector<std::string> remove_gone_processes(Database& database);

}  // namespace elgrande::db
