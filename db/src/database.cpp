#include "elgrande/db/database.hpp"

#include <sqlite3.h>

#include <string_view>

namespace elgrande::db {
namespace {

Error error_from(sqlite3* handle, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += handle != nullptr ? sqlite3_errmsg(handle) : "out of memory";
  return Error(message);
}

// Receives the single row of `PRAGMA journal_mode=...`, which names the mode in force.
int capture_first_column(void* out, int columns, char** values, char** /*names*/) {
  if (columns > 0 && values[0] != nullptr) *static_cast<std::string*>(out) = values[0];
  return SQLITE_OK;
}

}  // namespace

Database::Database(const std::filesystem::path& file) : file_(file) {
  // FULLMUTEX: the server's I/O threads may share one connection, so SQLite serialises.
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(file_.c_str(), &handle_, flags, nullptr) != SQLITE_OK) {
    // SQLite hands back a handle even when opening fails; it still has to be closed.
    Error error = error_from(handle_, "cannot open database " + file_.string());
    sqlite3_close(handle_);
    handle_ = nullptr;
    throw error;
  }

  // The pragma reports the mode actually in force; SQLite silently keeps the old one
  // when WAL is impossible (for example on some network file systems).
  std::string mode;
  char* message = nullptr;
  if (sqlite3_exec(handle_, "PRAGMA journal_mode=WAL", capture_first_column, &mode, &message) !=
          SQLITE_OK ||
      mode != "wal") {
    std::string reason = message != nullptr ? message : "journal mode is '" + mode + "'";
    sqlite3_free(message);
    sqlite3_close(handle_);
    handle_ = nullptr;
    throw Error("cannot enable write-ahead logging on " + file_.string() + ": " + reason);
  }
}

Database::~Database() {
  // sqlite3_close_v2 defers the close until unfinalised statements are gone instead of
  // failing, which a destructor could not report anyway.
  sqlite3_close_v2(handle_);
}

void Database::execute(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(handle_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string reason = message != nullptr ? message : sqlite3_errmsg(handle_);
    sqlite3_free(message);
    throw Error("SQL failed on " + file_.string() + ": " + reason);
  }
}

std::string Database::sqlite_version() {
  return sqlite3_libversion();
}

}  // namespace elgrande::db
