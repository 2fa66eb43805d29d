#include "elgrande/db/postgres.hpp"

#include <libpq-fe.h>

#include <charconv>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace elgrande::db {
namespace {

Error::Kind kind_of(std::string_view sqlstate) {
  if (sqlstate == "40001" || sqlstate == "40P01" || sqlstate == "55P03" || sqlstate == "57014") {
    return Error::Kind::busy;  // serialization failure, deadlock, lock or statement timeout
  }
  if (sqlstate.starts_with("53")) return Error::Kind::full;  // disk full, out of memory, too many connections
  if (sqlstate.starts_with("08") || sqlstate == "58030" || sqlstate.starts_with("57P")) {
    return Error::Kind::io;  // connection lost, I/O error, the server shutting down or starting
  }
  if (sqlstate.starts_with("XX00")) return Error::Kind::corrupt;
  if (sqlstate == "25006") return Error::Kind::read_only;
  if (sqlstate.starts_with("23")) return Error::Kind::constraint;
  return Error::Kind::other;
}

std::string trimmed(const char* message) {
  std::string text = message != nullptr ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

class PostgresStatement final : public Database::Prepared {
 public:
  PostgresStatement(PostgresDatabase& database, std::string_view sql)
      : database_(database), sql_(postgres_parameters(sql)) {}

  void bind(int index, std::int64_t value) override { set(index, std::to_string(value), false); }
  void bind(int index, double value) override {
    // The shortest text that reads back as the same double: exact, like SQLite's 8 bytes.
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, value);
    set(index, std::string(text, written.ptr), false);
  }
  void bind(int index, std::string_view text) override { set(index, std::string(text), false); }
  void bind(int index, std::span<const std::byte> blob) override {
    set(index, std::string(reinterpret_cast<const char*>(blob.data()), blob.size()), true);
  }
  void bind_null(int index) override { parameter(index) = PostgresDatabase::Parameter{}; }

  bool step() override {
    if (!result_) {
      result_ = database_.run(sql_, parameters_);
      row_ = -1;
    }
    return ++row_ < PQntuples(result_.get());
  }
  void reset() override {
    result_.reset();
    parameters_.clear();
  }

  bool is_null(int column) const override { return PQgetisnull(result_.get(), row_, column) == 1; }
  std::int64_t integer(int column) const override {
    const char* value = PQgetvalue(result_.get(), row_, column);
    if (PQftype(result_.get(), column) == kBoolean) return value[0] == 't' ? 1 : 0;
    std::int64_t number = 0;
    std::from_chars(value, value + PQgetlength(result_.get(), row_, column), number);
    return number;
  }
  double real(int column) const override {
    const char* value = PQgetvalue(result_.get(), row_, column);
    double number = 0;
    std::from_chars(value, value + PQgetlength(result_.get(), row_, column), number);
    return number;
  }
  std::string text(int column) const override {
    return std::string(PQgetvalue(result_.get(), row_, column),
                       static_cast<std::size_t>(PQgetlength(result_.get(), row_, column)));
  }
  std::vector<std::byte> blob(int column) const override {
    if (is_null(column)) return {};
    std::size_t size = 0;
    unsigned char* bytes =
        PQunescapeBytea(reinterpret_cast<const unsigned char*>(PQgetvalue(result_.get(), row_, column)), &size);
    if (bytes == nullptr) throw std::bad_alloc();
    std::vector<std::byte> blob(reinterpret_cast<std::byte*>(bytes), reinterpret_cast<std::byte*>(bytes) + size);
    PQfreemem(bytes);
    return blob;
  }

 private:
  static constexpr Oid kBoolean = 16;  // pg_type's oid of boolean

  PostgresDatabase::Parameter& parameter(int index) {
    if (index < 1) throw std::out_of_range("parameter index " + std::to_string(index));
    if (parameters_.size() < static_cast<std::size_t>(index)) parameters_.resize(static_cast<std::size_t>(index));
    return parameters_[static_cast<std::size_t>(index - 1)];
  }
  void set(int index, std::string value, bool binary) {
    parameter(index) = PostgresDatabase::Parameter{std::move(value), false, binary};
  }

  PostgresDatabase& database_;
  const std::string sql_;
  std::vector<PostgresDatabase::Parameter> parameters_;
  PostgresDatabase::Result result_;
  int row_ = -1;
};

}  // namespace

std::string postgres_parameters(std::string_view sql) {
  std::string out;
  out.reserve(sql.size());
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (c == '\'' || c == '"') {  // a literal or a quoted name, to its closing quote ('' and "" inside)
      const std::size_t close = sql.find(c, i + 1);
      const std::size_t end = close == std::string_view::npos ? sql.size() : close + 1;
      out.append(sql.substr(i, end - i));
      i = end - 1;
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {  // a comment, to the end of the line
      const std::size_t newline = sql.find('\n', i);
      const std::size_t end = newline == std::string_view::npos ? sql.size() : newline;
      out.append(sql.substr(i, end - i));
      i = end - 1;
    } else if (c == '?') {
      if (i + 1 >= sql.size() || sql[i + 1] < '0' || sql[i + 1] > '9') {
        throw std::invalid_argument("an unnumbered parameter in '" + std::string(sql) + "': use ?1, ?2, ...");
      }
      out += '$';
    } else {
      out += c;
    }
  }
  return out;
}

void PostgresDatabase::ResultDeleter::operator()(pg_result* result) const { PQclear(result); }

PostgresDatabase::PostgresDatabase(std::string url, const OpenOptions& options)
    : url_(std::move(url)), options_(options) {
  connect();
}

PostgresDatabase::~PostgresDatabase() { PQfinish(connection_); }

void PostgresDatabase::connect() {
  PQfinish(connection_);
  prepared_.clear();
  in_transaction_ = false;
  // Defaults first: whatever the URL says comes later and wins.
  const char* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
  const char* values[] = {"10", "elgrande-server", url_.c_str(), nullptr};
  connection_ = PQconnectdbParams(keys, values, 1);
  if (connection_ == nullptr) throw std::bad_alloc();
  if (PQstatus(connection_) != CONNECTION_OK) throw connection_error("cannot connect to PostgreSQL");
  // A lock held elsewhere fails as busy after the busy timeout, as SQLite's does; notices
  // (IF NOT EXISTS) are not the log's business.
  PQsetNoticeProcessor(connection_, [](void*, const char*) {}, nullptr);
  std::string settings = "SET lock_timeout = " + std::to_string(options_.busy_timeout_ms) + ";";
  // A transaction left open by a process that stopped (SIGSTOP, a stalled machine) would
  // hold its locks for good; ours never wait between statements for anything but us.
  settings += "SET idle_in_transaction_session_timeout = 10000;";
  // A client whose machine vanishes (no TCP reset) is noticed within about 11 s, and its
  // session ended, with its locks: idle 5 s, then 3 probes 2 s apart.
  settings += "SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3;";
  if (options_.idle_session_limit_ms > 0) {
    settings += "SET idle_session_timeout = " + std::to_string(options_.idle_session_limit_ms) + ";";
  }
  // Without a synchronous commit, a crash of PostgreSQL's machine may lose the last
  // commits, not a crash of this process: what `normal` promises.
  if (options_.durability == Durability::normal) settings += "SET synchronous_commit = off;";
  if (options_.read_only) settings += "SET default_transaction_read_only = on;";
  checked(PQexec(connection_, settings.c_str()), "configure the connection");
}

std::string PostgresDatabase::describe() const {
  const char* host = PQhost(connection_);
  const char* port = PQport(connection_);
  const char* name = PQdb(connection_);
  return std::string("postgresql://") + (host ? host : "") + ":" + (port ? port : "") + "/" + (name ? name : "");
}

Error PostgresDatabase::connection_error(std::string_view what) const {
  return Error(Error::Kind::io, 0, std::string(what) + ": " + trimmed(PQerrorMessage(connection_)));
}

void PostgresDatabase::ensure_connected() {
  if (PQstatus(connection_) == CONNECTION_OK) return;
  if (in_transaction_) throw connection_error("PostgreSQL connection lost in a transaction");
  connect();
}

PostgresDatabase::Result PostgresDatabase::checked(pg_result* raw, std::string_view what) {
  Result result(raw);
  const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
    const char* changed = PQcmdTuples(result.get());
    changes_ = changed[0] != '\0' ? std::stoll(changed) : 0;
    return result;
  }
  if (PQstatus(connection_) != CONNECTION_OK) throw connection_error(what);
  const char* sqlstate = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
  const std::string message = result ? trimmed(PQresultErrorMessage(result.get())) : trimmed(PQerrorMessage(connection_));
  throw Error(kind_of(sqlstate ? sqlstate : ""), 0, std::string(what) + ": " + message);
}

void PostgresDatabase::execute(const std::string& sql) {
  ensure_connected();
  checked(PQexec(connection_, sql.c_str()), "SQL failed on " + describe());
}

PostgresDatabase::Result PostgresDatabase::run(const std::string& sql, const std::vector<Parameter>& parameters) {
  ensure_connected();
  auto found = prepared_.find(sql);
  if (found == prepared_.end()) {
    const std::string name = "s" + std::to_string(prepared_.size() + 1);
    checked(PQprepare(connection_, name.c_str(), sql.c_str(), 0, nullptr), "cannot prepare '" + sql + "'");
    found = prepared_.emplace(sql, name).first;
  }
  std::vector<const char*> values;
  std::vector<int> lengths;
  std::vector<int> formats;
  for (const Parameter& p : parameters) {
    values.push_back(p.null ? nullptr : p.value.data());
    lengths.push_back(static_cast<int>(p.value.size()));
    formats.push_back(p.binary ? 1 : 0);
  }
  return checked(PQexecPrepared(connection_, found->second.c_str(), static_cast<int>(parameters.size()),
                                values.data(), lengths.data(), formats.data(), 0),
                 sql);
}

std::unique_ptr<Database::Prepared> PostgresDatabase::prepare_statement(std::string_view sql) {
  return std::make_unique<PostgresStatement>(*this, sql);
}

int PostgresDatabase::user_version() {
  Statement found = prepare("SELECT to_regclass('schema_version') IS NOT NULL");
  if (!found.step() || found.integer(0) == 0) return 0;
  Statement version = prepare("SELECT version FROM schema_version");
  return version.step() ? static_cast<int>(version.integer(0)) : 0;
}

void PostgresDatabase::set_user_version(int version) {
  execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL); DELETE FROM schema_version; "
          "INSERT INTO schema_version VALUES (" + std::to_string(version) + ")");
}

void PostgresDatabase::begin() {
  ensure_connected();
  execute("BEGIN");
  in_transaction_ = true;
}

void PostgresDatabase::commit() {
  in_transaction_ = false;
  // Never on a new connection: there, COMMIT would succeed with nothing to commit. A
  // commit whose answer is lost with the connection may or may not have happened; it is
  // reported as failed (io), like a commit that failed.
  if (PQstatus(connection_) != CONNECTION_OK) throw connection_error("PostgreSQL connection lost before COMMIT");
  const Result result = checked(PQexec(connection_, "COMMIT"), "COMMIT on " + describe());
  // A transaction that failed part-way ends in ROLLBACK even when asked to commit.
  if (std::strcmp(PQcmdStatus(result.get()), "COMMIT") != 0) {
    throw Error(Error::Kind::other, 0, "COMMIT on " + describe() + " rolled back: the transaction had failed");
  }
}

void PostgresDatabase::rollback() noexcept {
  in_transaction_ = false;
  if (PQstatus(connection_) == CONNECTION_OK) PQclear(PQexec(connection_, "ROLLBACK"));
}

}  // namespace elgrande::db
