#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

// Forward-declared so that users of Database do not inherit sqlite3.h.
struct sqlite3;

namespace elgrande::db {

// Every SQLite failure surfaces as this type, carrying SQLite's own message.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One open SQLite connection. Opening creates the file if it is missing and switches
// the database to write-ahead logging, so readers never block the single writer.
class Database {
 public:
  explicit Database(const std::filesystem::path& file);
  ~Database();

  // A connection is a resource, not a value: exactly one owner closes it.
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  Database(Database&&) = delete;
  Database& operator=(Database&&) = delete;

  // Runs one or more SQL statements that return no rows the caller needs.
  void execute(const std::string& sql);

  const std::filesystem::path& file() const noexcept { return file_; }

  // Version of the SQLite library linked at run time (not the header it was built with).
  static std::string sqlite_version();

 private:
  std::filesystem::path file_;
  sqlite3* handle_ = nullptr;
};

}  // namespace elgrande::db
