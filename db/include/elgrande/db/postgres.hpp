#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

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
//
// A transaction runs in libpq's pipeline mode: BEGIN and the writes sent with
// Statement::send go out without waiting, and their answers are read together at the next
// statement whose rows or count are read, or at COMMIT. A transaction of writes alone costs
// one round trip to the server instead of one per statement.
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
  // The same, not waiting for the answer in a transaction (Statement::send).
  void send(const std::string& sql, const std::vector<Parameter>& parameters);

 protected:
  std::unique_ptr<Prepared> prepare_statement(std::string_view sql) override;

 private:
  void connect();
  // Opens the connection again if it was lost, unless a transaction was under way.
  void ensure_connected();
  // The result, or the error it carries (or the connection's) as db::Error.
  Result checked(pg_result* result, std::string_view what);
  // Whether a statement worked; if so, its count of changed rows is kept for changes().
  bool succeeded(pg_result* result);
  Error failure_of(const pg_result* result, std::string_view what) const;
  Error connection_error(std::string_view what) const;
  // The statement's name on this connection, prepared first if need be (queued, in the pipeline).
  const std::string& statement_name(const std::string& sql);
  // Sends a statement into the pipeline, its answer unread.
  void queue(const std::string& sql, const std::vector<Parameter>& parameters);
  void queue_text(const char* sql);
  // Reads every answer the pipeline owes; the last one, or the first failure among them.
  Result sync(std::string_view what);
  void enter_pipeline();
  void leave_pipeline() noexcept;

  const std::string url_;
  const OpenOptions options_;
  pg_conn* connection_ = nullptr;
  bool in_transaction_ = false;
  bool pipelining_ = false;
  int unread_ = 0;  // statements in the pipeline whose answers are not read yet
  // The statements prepared on this connection, by their SQL: a bounded set, the
  // server's own texts. Those whose preparing is still in the pipeline are forgotten if
  // it fails (their names are never used again).
  std::unordered_map<std::string, std::string> prepared_;
  std::vector<std::string> unconfirmed_;
  std::int64_t names_given_ = 0;
  std::int64_t changes_ = 0;
};

// SQL with SQLite's numbered parameters ?1, ?2, ... in PostgreSQL's $1, $2, ... (string
// literals, quoted names and comments untouched).
std::string postgres_parameters(std::string_view sql);

}  // namespace elgrande::db
