#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// Forward-declared so that users of Database do not inherit sqlite3.h.
struct sqlite3;
struct sqlite3_stmt;

namespace elgrande::db {

// Every SQLite failure surfaces as this type, carrying SQLite's own message and what
// kind of failure it was, so callers can tell a busy or full disk (worth retrying) from
// a corrupt file or a bug.
class Error : public std::runtime_error {
 public:
  enum class Kind : std::uint8_t {
    busy,        // another connection holds a lock longer than the busy timeout
    full,        // the disk or the database size limit is full
    io,          // the operating system reported an I/O error
    corrupt,     // the file is damaged
    not_a_database,
    read_only,
    constraint,  // a CHECK, UNIQUE or foreign key refused the change: a bug of ours
    other,
  };
  Error(Kind kind, int code, const std::string& message)
      : std::runtime_error(message), kind_(kind), code_(code) {}

  Kind kind() const noexcept { return kind_; }
  int code() const noexcept { return code_; }  // SQLite's extended result code
  // Failures that may go away by themselves: waiting and trying again makes sense.
  bool transient() const noexcept { return kind_ == Kind::busy || kind_ == Kind::full || kind_ == Kind::io; }

 private:
  Kind kind_;
  int code_;
};

enum class Durability : std::uint8_t {
  full,    // every commit reaches the disk before it returns (PRAGMA synchronous=FULL)
  normal,  // commits survive a crash of the process, not always of the machine
};

struct OpenOptions {
  bool create = true;  // create the file if it is missing
  bool read_only = false;
  Durability durability = Durability::full;
  int busy_timeout_ms = 5000;  // how long to wait for another connection's lock
};

class Statement;

// One open SQLite connection, used by one thread at a time. Opening switches the
// database to write-ahead logging, so readers never block the single writer, and turns
// foreign keys on.
class Database {
 public:
  explicit Database(const std::filesystem::path& file, const OpenOptions& options = {});
  ~Database();

  // A connection is a resource, not a value: exactly one owner closes it.
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  Database(Database&&) = delete;
  Database& operator=(Database&&) = delete;

  // Runs one or more SQL statements that return no rows the caller needs.
  void execute(const std::string& sql);
  Statement prepare(std::string_view sql);

  // PRAGMA user_version: the schema version (see schema.hpp).
  int user_version();
  void set_user_version(int version);

  std::int64_t last_insert_rowid() const;
  std::int64_t changes() const;  // rows changed by the last statement

  // A consistent copy of the whole database in a new file, taken while others keep
  // reading and writing (VACUUM INTO). The target must not exist.
  void backup_to(const std::filesystem::path& target);

  const std::filesystem::path& file() const noexcept { return file_; }
  sqlite3* handle() const noexcept { return handle_; }
  // True when the connection cannot write: opened read-only, or opened for writing on a
  // file this process may not write, which SQLite then opens read-only without a word.
  bool read_only() const;

  // Version of the SQLite library linked at run time (not the header it was built with).
  static std::string sqlite_version();

  // The error for the connection's last failure, prefixed with what was being done.
  Error error(std::string_view what) const;

 private:
  std::filesystem::path file_;
  sqlite3* handle_ = nullptr;
};

// A prepared statement. Bind parameters by 1-based index, step through the rows, read
// columns by 0-based index. Reset to run it again with new bindings.
class Statement {
 public:
  Statement(Database& database, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, std::int64_t{value}); }
  Statement& bind(int index, double value);  // exact: SQLite keeps a REAL as its 8 bytes
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
  Statement& bind(int index, std::span<const std::byte> blob);
  Statement& bind(int index, std::nullopt_t);
  template <class T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind(index, std::nullopt);
  }

  // Advances to the next row: true if there is one, false when done.
  bool step();
  // Runs a statement that returns no rows, then resets it for the next use.
  void run();
  void reset();

  bool is_null(int column) const;
  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::vector<std::byte> blob(int column) const;
  std::optional<std::int64_t> optional_integer(int column) const {
    return is_null(column) ? std::nullopt : std::optional(integer(column));
  }
  std::optional<std::string> optional_text(int column) const {
    return is_null(column) ? std::nullopt : std::optional(text(column));
  }

 private:
  Database* database_;
  sqlite3_stmt* statement_ = nullptr;
};

// BEGIN IMMEDIATE on construction (taking the write lock at once, so a busy database
// fails here rather than half-way), ROLLBACK on destruction unless committed.
class Transaction {
 public:
  explicit Transaction(Database& database);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void commit();

 private:
  Database& database_;
  bool done_ = false;
};

}  // namespace elgrande::db
