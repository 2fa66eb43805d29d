#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "elgrande/db/database.hpp"

// Forward-declared so that users of PostgresDatabase do not inherit libpq-fe.h.
struct pg_conn;
struct pg_result;

namespace elgrande::db {

// One connection to a PostgreSQL server (docs/scaling.md), for several server processes
// sharing one community. It speaks the SQL the SQLite backend speaks: ?N parameters become
// $N, and each distinct statement is prepared once per connection. A statement's rows are
// fetched whole when it first steps, so that other statements may run while it is read.
// A connection lost between transactions is opened again at the next use; one lost in a
// transaction fails it (Error::Kind::io, transient) and the caller runs it again.
class PostgresDatabase final : public Database {
 public:
  // `url`: postgresql://user@host:port/database?options... (libpq's connection URI).
  explicit PostgresDatabase(std::string url, const OpenOptions& options = {});
  ~PostgresDatabase() override;

  Backend backend() const noexcept override { return Backend::postgresql; }
  std::string describe() const override;
  std::string engine() const override { return "PostgreSQL"; }
  void execute(const std::string& sql) override;
  // Kept in the table schema_version: PostgreSQL has no user_version.
  int user_version() override;
  void set_user_version(int version) override;
  std::int64_t changes() const override { return changes_; }
  bool read_only() const override { return options_.read_only; }
  void begin() override;
  void commit() override;
  void rollback() noexcept override;

  // Runs a statement with its parameters (texts, or bytes where `binary`); the result is
  // the caller's. For PostgresStatement.
  struct Parameter {
    std::string value;
    bool null = true;
    bool binary = false;
  };
  struct ResultDeleter {
    void operator()(pg_result* result) const;
  };
  using Result = std::unique_ptr<pg_result, ResultDeleter>;
  Result run(const std::string& sql, const std::vector<Parameter>& parameters);

 protected:
  std::unique_ptr<Prepared> prepare_statement(std::string_view sql) override;

 private:
  void connect();
  // Opens the connection again if it was lost, unless a transaction was under way.
  void ensure_connected();
  // The result, or the error it carries (or the connection's) as db::Error.
  Result checked(pg_result* result, std::string_view what);
  Error connection_error(std::string_view what) const;

  const std::string url_;
  const OpenOptions options_;
  pg_conn* connection_ = nullptr;
  bool in_transaction_ = false;
  // The statements prepared on this connection, by their SQL: a bounded set, the
  // server's own texts.
  std::unordered_map<std::string, std::string> prepared_;
  std::int64_t changes_ = 0;
};

// SQL with SQLite's numbered parameters ?1, ?2, ... in PostgreSQL's $1, $2, ... (string
// literals, quoted names and comments untouched).
std::string postgres_parameters(std::string_view sql);

}  // namespace elgrande::db
