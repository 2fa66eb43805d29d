#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace elgrande::db {

// Every database failure surfaces as this type, carrying the database's own message and
// what kind of failure it was, so callers can tell a busy or full disk, or a lost
// connection (worth retrying) from a corrupt file or a bug.
class Error : public std::runtime_error {
 public:
  enum class Kind : std::uint8_t {
    busy,        // another connection holds a lock longer than the busy timeout
    full,        // the disk or the database size limit is full
    io,          // the operating system reported an I/O error, or the connection to the server failed
    corrupt,     // the file is damaged
    not_a_database,
    read_only,
    constraint,  // a CHECK, UNIQUE or foreign key refused the change: a bug of ours
    other,
  };
  Error(Kind kind, int code, const std::string& message)
      : std::runtime_error(message), kind_(kind), code_(code) {}

  Kind kind() const noexcept { return kind_; }
  int code() const noexcept { return code_; }  // SQLite's extended result code; 0 for PostgreSQL
  // Failures that may go away by themselves: waiting and trying again makes sense.
  bool transient() const noexcept { return kind_ == Kind::busy || kind_ == Kind::full || kind_ == Kind::io; }

 private:
  Kind kind_;
  int code_;
};

enum class Durability : std::uint8_t {
  full,    // every commit reaches the disk before it returns
  normal,  // commits survive a crash of the process, not always of the machine
};

struct OpenOptions {
  bool create = true;  // create the file if it is missing (SQLite)
  bool read_only = false;
  Durability durability = Durability::full;
  int busy_timeout_ms = 5000;  // how long to wait for another connection's lock
  // PostgreSQL: the server ends the connection after this long without a statement
  // (idle_session_timeout), each time it is opened; 0: never.
  int idle_session_limit_ms = 0;
};

enum class Backend : std::uint8_t { sqlite, postgresql };

class Statement;

// One open connection to the database, used by one thread at a time: a SQLite file
// (sqlite.hpp) or a PostgreSQL server (postgres.hpp). Both speak the same SQL, the subset
// the two share: numbered parameters ?1, ?2, ..., INSERT ... ON CONFLICT, RETURNING, IS
// DISTINCT FROM; integers are 64-bit, truth values are integers 0 and 1.
class Database {
 public:
  Database() = default;
  virtual ~Database() = default;

  // A connection is a resource, not a value: exactly one owner closes it.
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  virtual Backend backend() const noexcept = 0;
  // Where the database is, for messages: the file, or the server and database name
  // (never a password).
  virtual std::string describe() const = 0;

  // Runs one or more SQL statements that return no rows the caller needs.
  virtual void execute(const std::string& sql) = 0;
  Statement prepare(std::string_view sql);

  // The schema version (see schema.hpp).
  virtual int user_version() = 0;
  virtual void set_user_version(int version) = 0;

  virtual std::int64_t changes() const = 0;  // rows changed by the last statement

  // True when the connection cannot write.
  virtual bool read_only() const = 0;

  // The backend and its version, for the start line: "SQLite 3.45.1", "PostgreSQL".
  virtual std::string engine() const = 0;

  // The first problem a quick look over the stored pages finds (SQLite's quick_check), or
  // nothing. A PostgreSQL server checks its own pages: there this finds nothing.
  virtual std::optional<std::string> integrity_problem() { return std::nullopt; }

  // A consistent copy of the whole database in a new file, taken while others keep
  // reading and writing. The target must not exist. SQLite only: PostgreSQL has pg_dump.
  virtual void backup_to(const std::filesystem::path& target);

  // SQLite's write-ahead log (sqlite.hpp says what each does). A backend without one
  // keeps nothing on close, hands nothing off (false) and copies nothing.
  struct Checkpoint {
    int log_pages = 0;
    int copied_pages = 0;  // of them, now in the database file
  };
  virtual void keep_log_on_close() {}
  virtual bool hand_off_checkpoints(std::function<void(int log_pages)> /*log_grew*/, int /*ceiling*/) {
    return false;
  }
  virtual Checkpoint checkpoint() { return {}; }

  // Transactions, for Transaction below. begin() takes the write lock at once where the
  // backend has one, so that a busy database fails there rather than half-way.
  virtual void begin() = 0;
  virtual void commit() = 0;
  virtual void rollback() noexcept = 0;

  // What a Statement does, per backend.
  class Prepared {
   public:
    virtual ~Prepared() = default;
    virtual void bind(int index, std::int64_t value) = 0;
    virtual void bind(int index, double value) = 0;
    virtual void bind(int index, std::string_view text) = 0;
    virtual void bind(int index, std::span<const std::byte> blob) = 0;
    virtual void bind_null(int index) = 0;
    virtual bool step() = 0;
    // Runs a statement whose rows and count are not read (Statement::send).
    virtual void send() {
      while (step()) {
      }
    }
    virtual void reset() = 0;
    virtual bool is_null(int column) const = 0;
    virtual std::int64_t integer(int column) const = 0;
    virtual double real(int column) const = 0;
    virtual std::string text(int column) const = 0;
    virtual std::vector<std::byte> blob(int column) const = 0;
  };

 protected:
  virtual std::unique_ptr<Prepared> prepare_statement(std::string_view sql) = 0;
};

// Opens `location`: a postgresql:// (or postgres://) URL, or else the path of a SQLite file.
std::unique_ptr<Database> open(const std::string& location, const OpenOptions& options = {});
bool is_postgresql_url(std::string_view location);

// A prepared statement. Bind parameters by 1-based index, step through the rows, read
// columns by 0-based index. Reset to run it again with new bindings.
class Statement {
 public:
  explicit Statement(std::unique_ptr<Database::Prepared> prepared) : prepared_(std::move(prepared)) {}

  Statement& bind(int index, std::int64_t value) { return prepared_->bind(index, value), *this; }
  Statement& bind(int index, int value) { return bind(index, std::int64_t{value}); }
  Statement& bind(int index, double value) { return prepared_->bind(index, value), *this; }  // exact
  Statement& bind(int index, std::string_view text) { return prepared_->bind(index, text), *this; }
  Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
  Statement& bind(int index, std::span<const std::byte> blob) { return prepared_->bind(index, blob), *this; }
  Statement& bind(int index, std::nullopt_t) { return prepared_->bind_null(index), *this; }
  template <class T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind(index, std::nullopt);
  }

  // Advances to the next row: true if there is one, false when done.
  bool step() { return prepared_->step(); }
  // Runs a statement that returns no rows, then resets it for the next use.
  void run();
  // Like run(), for a write whose count of changed rows is not read either: in a
  // PostgreSQL transaction it is sent without waiting for its answer (libpq's pipeline),
  // and a failure of it is thrown by the next statement that waits, or by the commit.
  void send();
  void reset() { prepared_->reset(); }

  bool is_null(int column) const { return prepared_->is_null(column); }
  std::int64_t integer(int column) const { return prepared_->integer(column); }
  double real(int column) const { return prepared_->real(column); }
  std::string text(int column) const { return prepared_->text(column); }
  std::vector<std::byte> blob(int column) const { return prepared_->blob(column); }
  std::optional<std::int64_t> optional_integer(int column) const {
    return is_null(column) ? std::nullopt : std::optional(integer(column));
  }
  std::optional<std::string> optional_text(int column) const {
    return is_null(column) ? std::nullopt : std::optional(text(column));
  }

 private:
  template <class Work>
  void reset_after(Work work);

  std::unique_ptr<Database::Prepared> prepared_;
};

// Begins on construction (taking the write lock at once where the backend has one, so a
// busy database fails here rather than half-way), rolls back on destruction unless committed.
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
