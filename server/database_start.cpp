#include "database_start.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "common/unix_time.hpp"
#include "elgrande/db/schema.hpp"
#include "storage/start_checks.hpp"

namespace elgrande::server {

DatabaseLock::DatabaseLock(const std::filesystem::path& database) {
  const std::string path = database.string() + ".lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    throw std::runtime_error("database " + database.string() + " is in use by another elgrande-server (" + path +
                             " is locked)");
  }
}

DatabaseLock::~DatabaseLock() { ::close(fd_); }

// A database the server may not write would let it start, answer health checks and refuse
// every player. Its directory must be writable too: SQLite keeps `-wal` and `-shm` files
// beside the database, and the lock file lives there.
void refuse_unwritable(const std::filesystem::path& database) {
  const auto refuse = [&database](const std::string& what, int error) {
    throw std::runtime_error("database " + database.string() + " cannot be written by this server (uid " +
                             std::to_string(::geteuid()) + "): " + what + ": " + std::strerror(error) +
                             "; give the server's user write access to the database file and its directory, "
                             "or mount the file system read-write");
  };
  const std::filesystem::path directory = database.has_parent_path() ? database.parent_path() : ".";
  if (::access(directory.c_str(), W_OK | X_OK) != 0) refuse("directory " + directory.string(), errno);
  for (const std::string& file : {database.string(), database.string() + "-wal", database.string() + "-shm"}) {
    if (::access(file.c_str(), F_OK) == 0 && ::access(file.c_str(), W_OK) != 0) refuse(file, errno);
  }
}

// SQLite takes a missing or empty database file for a new database and deletes a
// write-ahead log found beside it, committed data and all, even when it opens the file
// only to read it. So such a log stops whatever would open the database.
void refuse_lone_write_ahead_log(const std::filesystem::path& database) {
  const std::filesystem::path log = database.string() + "-wal";
  std::error_code error;
  const std::uintmax_t log_size = std::filesystem::file_size(log, error);
  if (error) return;  // no log (a log it cannot read, SQLite reports when opening)
  const std::uintmax_t database_size = std::filesystem::file_size(database, error);
  const std::string what_to_do = "; put the database file back (from where it went, or from a backup), or, to "
                                 "start with an empty database, move " + log.string() + " away";
  if (error) {
    throw std::runtime_error("database " + database.string() + " is missing but its write-ahead log " +
                             log.string() + " (" + std::to_string(log_size) +
                             " bytes) is there, and may hold committed data that opening would delete" + what_to_do);
  }
  if (database_size == 0 && log_size > 0) {
    throw std::runtime_error("database " + database.string() + " is empty but its write-ahead log " + log.string() +
                             " holds " + std::to_string(log_size) + " bytes, which opening would delete" +
                             what_to_do + " and the empty file with it");
  }
}

// SQLite drops a damaged frame of a write-ahead log without a word (by design: it cannot
// tell it from a write cut short). A log found at start is copied first, so that whatever
// SQLite makes of it, the operator keeps its bytes.
void keep_write_ahead_log(const std::filesystem::path& database) {
  refuse_lone_write_ahead_log(database);
  const std::filesystem::path log = database.string() + "-wal";
  std::error_code error;
  const std::uintmax_t log_size = std::filesystem::file_size(log, error);
  if (error || log_size == 0) return;
  const std::filesystem::path copy = log.string() + "." + std::to_string(unix_milliseconds()) + ".bak";
  const auto refuse = [&](const std::string& reason) {
    std::filesystem::remove(copy, error);
    throw std::runtime_error("cannot keep a copy of the write-ahead log " + log.string() + " in " + copy.string() +
                             ": " + reason + "; free some space, or copy the log elsewhere by hand and start again");
  };
  if (!std::filesystem::copy_file(log, copy, error)) refuse(error.message());
  // The copy must outlive a power cut that follows the checkpoint emptying the log.
  const int fd = ::open(copy.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int failed = errno;
    if (fd >= 0) ::close(fd);
    refuse(std::strerror(failed));
  }
  ::close(fd);
  spdlog::info("write-ahead log {} ({} bytes) found at start, copied to {} before opening the database: SQLite drops "
               "a damaged frame of it without a word, and the copy keeps it (see docs/persistence.md)",
               log.string(), log_size, copy.string());
}

std::string process_name() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  static const std::int64_t started = unix_milliseconds();
  return std::string(host) + ":" + std::to_string(::getpid()) + ":" + std::to_string(started);
}


// A refused start must leave the file as it was, and opening it for writing already
// switches it to write-ahead logging: a database from a newer server is refused after a
// read-only look, before anything is written.
void refuse_newer_schema(const std::filesystem::path& file) {
  std::error_code error;
  if (!std::filesystem::exists(file, error)) return;
  const std::unique_ptr<db::Database> look = db::open(file.string(), {.create = false, .read_only = true});
  const int found = look->user_version();
  if (found > db::latest_schema_version()) {
    throw db::SchemaTooNew("database " + file.string() + " has schema version " + std::to_string(found) +
                           ", newer than this server's " + std::to_string(db::latest_schema_version()) +
                           "; run the elgrande-server release that wrote it, or a later one");
  }
}

void migrate_logged(db::Database& database) {
  const int before = database.user_version();
  db::migrate(database);
  if (before != db::latest_schema_version()) {
    spdlog::info("database schema migrated from version {} to {}", before, db::latest_schema_version());
  }
}

// Opens, checks and migrates the database: a damaged file, one from a newer server or one
// another process keeps locked stops the start with the reason, never with a silent reset.
// Given `ledger` (a server's start), a SQLite database that lost commits stops it too, and
// the ledger that counts them from now on is made.
std::unique_ptr<db::Database> open_database(const Config& config, std::unique_ptr<CommitLedger>* ledger) {
  if (config.postgresql()) {
    auto database = db::open(config.database, {.durability = config.durability});
    migrate_logged(*database);
    return database;
  }
  refuse_newer_schema(config.database_path());
  auto database = db::open(config.database_path().string(), {.durability = config.durability});
  if (database->read_only()) {
    throw std::runtime_error("database " + config.database_path().string() +
                             " cannot be written by this server: SQLite could open it for reading only; give the "
                             "server's user write access to it and its directory");
  }
  if (config.integrity_check) {
    if (const auto problem = database->integrity_problem()) {
      throw std::runtime_error("database " + config.database_path().string() + " is damaged: " + *problem +
                               "; restore it from a backup (see docs/persistence.md)");
    }
  }
  const std::filesystem::path ledger_path = ledger_file(config.database_path());
  if (ledger) refuse_lost_commits(*database, ledger_path, config.accept_lost_commits);
  migrate_logged(*database);
  if (ledger) *ledger = open_ledger(*database, ledger_path);
  return database;
}

DatabaseOwnership::DatabaseOwnership(const Config& config) {
  if (config.postgresql()) {
    db::migrate(*db::open(config.database));  // the leader's row is part of the schema
    leadership_ = std::make_unique<Leadership>(config.database, process_name());
    if (!leadership_->try_lead()) {
      throw std::runtime_error("an elgrande-server leads this database; stop every server on it first");
    }
    return;
  }
  std::filesystem::create_directories(config.data_dir);
  refuse_unwritable(config.database_path());
  lock_.emplace(config.database_path());
  keep_write_ahead_log(config.database_path());  // under the lock: no other server writes it
}

}  // namespace elgrande::server
