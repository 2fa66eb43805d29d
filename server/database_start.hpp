#pragma once

// Opening the database at start, so that nothing is ever reset in silence: one owner at a
// time, a file the server can write, a write-ahead log kept, a schema no newer than this
// server's, no lost commits. For the server (main.cpp) and the operator's commands.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "cluster/leadership.hpp"
#include "elgrande/db/database.hpp"
#include "ops/config.hpp"
#include "storage/commit_ledger.hpp"

namespace elgrande::server {

// Only one server may own a SQLite database: a second one would interleave its games' logs
// with the first's. The lock is an flock on a file beside the database, released by the
// kernel when the process ends, however it ends.
class DatabaseLock {
 public:
  explicit DatabaseLock(const std::filesystem::path& database);
  ~DatabaseLock();
  DatabaseLock(const DatabaseLock&) = delete;
  DatabaseLock& operator=(const DatabaseLock&) = delete;

 private:
  int fd_ = -1;
};

// The database made this process's own: a server's on SQLite, or a maintenance command's
// (--create-admin, --recompute-ratings), which must run with no server on the database.
// SQLite: the data directory is made, the file must be writable, the lock beside it taken,
// and a write-ahead log found alone at start stops it. PostgreSQL: this process leads
// (cluster/leadership.hpp), so no server can meanwhile; one that leads refuses the command.
class DatabaseOwnership {
 public:
  explicit DatabaseOwnership(const Config& config);

 private:
  std::optional<DatabaseLock> lock_;
  std::unique_ptr<Leadership> leadership_;
};

// This process's name among several on one database: host, pid and when it started (Unix
// ms), since a container restarted runs as the same host and pid.
std::string process_name();

// SQLite takes a missing or empty database file for a new database and deletes a
// write-ahead log found beside it; such a log stops whatever would open the database.
void refuse_lone_write_ahead_log(const std::filesystem::path& database);

// Opens, checks and migrates the database: a damaged file, one from a newer server or one
// another process keeps locked stops the start with the reason, never with a silent reset.
// Given `ledger` (a server's start), a SQLite database that lost commits stops it too, and
// the ledger that counts them from now on is made.
std::unique_ptr<db::Database> open_database(const Config& config, std::unique_ptr<CommitLedger>* ledger = nullptr);

}  // namespace elgrande::server
