#include "elgrande/db/postgres.hpp"

#include <libpq-fe.h>

#include <charconv>
#include <cstring>
#include <optional>
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
  void send() override { database_.send(sql_, parameters_); }
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
  unconfirmed_.clear();
  in_transaction_ = false;
  pipelining_ = false;
  unread_ = 0;
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
  if (succeeded(result.get())) return result;
  throw failure_of(result.get(), what);
}

bool PostgresDatabase::succeeded(pg_result* result) {
  const ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) return false;
  const char* changed = PQcmdTuples(result);
  changes_ = changed[0] != '\0' ? std::stoll(changed) : 0;
  return true;
}

Error PostgresDatabase::failure_of(const pg_result* result, std::string_view what) const {
  if (PQstatus(connection_) != CONNECTION_OK) return connection_error(what);
  const char* sqlstate = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  const std::string message = result ? trimmed(PQresultErrorMessage(result)) : trimmed(PQerrorMessage(connection_));
  return Error(kind_of(sqlstate ? sqlstate : ""), 0, std::string(what) + ": " + message);
}

void PostgresDatabase::execute(const std::string& sql) {
  ensure_connected();
  // Several statements in one text need the simple protocol, which a pipeline cannot carry.
  const bool pipelined = pipelining_;
  if (pipelined) {
    sync(sql);
    leave_pipeline();
  }
  checked(PQexec(connection_, sql.c_str()), "SQL failed on " + describe());
  if (pipelined) enter_pipeline();
}

const std::string& PostgresDatabase::statement_name(const std::string& sql) {
  auto found = prepared_.find(sql);
  if (found != prepared_.end()) return found->second;
  const std::string name = "s" + std::to_string(++names_given_);
  if (pipelining_) {
    if (PQsendPrepare(connection_, name.c_str(), sql.c_str(), 0, nullptr) != 1) {
      throw connection_error("cannot send '" + sql + "'");
    }
    ++unread_;
    unconfirmed_.push_back(sql);
  } else {
    checked(PQprepare(connection_, name.c_str(), sql.c_str(), 0, nullptr), "cannot prepare '" + sql + "'");
  }
  return prepared_.emplace(sql, name).first->second;
}

namespace {

struct Values {
  std::vector<const char*> values;
  std::vector<int> lengths;
  std::vector<int> formats;

  explicit Values(const std::vector<PostgresDatabase::Parameter>& parameters) {
    for (const PostgresDatabase::Parameter& p : parameters) {
      values.push_back(p.null ? nullptr : p.value.data());
      lengths.push_back(static_cast<int>(p.value.size()));
      formats.push_back(p.binary ? 1 : 0);
    }
  }
  int count() const { return static_cast<int>(values.size()); }
};

// Answers a pipeline may owe before it is read: a bound far below what the sockets'
// buffers hold, so that neither side ever blocks writing while the other does too.
constexpr int kMostUnread = 256;

}  // namespace

PostgresDatabase::Result PostgresDatabase::run(const std::string& sql, const std::vector<Parameter>& parameters) {
  ensure_connected();
  if (pipelining_) {
    queue(sql, parameters);
    return sync(sql);
  }
  const std::string& name = statement_name(sql);
  const Values v(parameters);
  return checked(PQexecPrepared(connection_, name.c_str(), v.count(), v.values.data(), v.lengths.data(),
                                v.formats.data(), 0),
                 sql);
}

void PostgresDatabase::send(const std::string& sql, const std::vector<Parameter>& parameters) {
  if (!pipelining_) {
    run(sql, parameters);
    return;
  }
  ensure_connected();
  queue(sql, parameters);
  if (unread_ >= kMostUnread) sync(sql);
}

void PostgresDatabase::queue(const std::string& sql, const std::vector<Parameter>& parameters) {
  const std::string& name = statement_name(sql);
  const Values v(parameters);
  if (PQsendQueryPrepared(connection_, name.c_str(), v.count(), v.values.data(), v.lengths.data(), v.formats.data(),
                          0) != 1) {
    throw connection_error("cannot send '" + sql + "'");
  }
  ++unread_;
}

void PostgresDatabase::queue_text(const char* sql) {
  if (PQsendQueryParams(connection_, sql, 0, nullptr, nullptr, nullptr, nullptr, 0) != 1) {
    throw connection_error(std::string("cannot send ") + sql);
  }
  ++unread_;
}

PostgresDatabase::Result PostgresDatabase::sync(std::string_view what) {
  if (PQpipelineSync(connection_) != 1) throw connection_error(what);
  Result last;
  std::optional<Error> failure;
  // Each statement's answer, then the null that ends it; after the first failure the
  // rest come back aborted.
  for (; unread_ > 0; --unread_) {
    Result result(PQgetResult(connection_));
    if (!result) {
      failure = connection_error(what);
      break;
    }
    while (pg_result* more = PQgetResult(connection_)) PQclear(more);
    if (succeeded(result.get())) {
      last = std::move(result);
    } else if (PQresultStatus(result.get()) != PGRES_PIPELINE_ABORTED && !failure) {
      failure = failure_of(result.get(), what);
    }
  }
  const Result synced(failure && unread_ > 0 ? nullptr : PQgetResult(connection_));
  unread_ = 0;
  if (!synced || PQresultStatus(synced.get()) != PGRES_PIPELINE_SYNC) {
    // The answers are out of step: this connection cannot be trusted with another.
    if (!failure) failure = connection_error(what);
    PQfinish(connection_);
    connection_ = nullptr;
  }
  if (failure) {
    for (const std::string& sql : unconfirmed_) prepared_.erase(sql);
    unconfirmed_.clear();
    throw *failure;
  }
  unconfirmed_.clear();
  return last;
}

void PostgresDatabase::enter_pipeline() {
  if (PQenterPipelineMode(connection_) != 1) throw connection_error("cannot enter pipeline mode");
  pipelining_ = true;
}

void PostgresDatabase::leave_pipeline() noexcept {
  if (!pipelining_) return;
  pipelining_ = false;
  unread_ = 0;
  // Answers left unread (a connection that failed while sending): it cannot be trusted.
  if (connection_ != nullptr && PQexitPipelineMode(connection_) != 1) {
    PQfinish(connection_);
    connection_ = nullptr;
  }
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
  try {
    enter_pipeline();
    queue_text("BEGIN");
  } catch (...) {
    leave_pipeline();
    throw;
  }
  in_transaction_ = true;
}

void PostgresDatabase::commit() {
  in_transaction_ = false;
  // Never on a new connection: there, COMMIT would succeed with nothing to commit. A
  // commit whose answer is lost with the connection may or may not have happened; it is
  // reported as failed (io), like a commit that failed.
  if (PQstatus(connection_) != CONNECTION_OK) throw connection_error("PostgreSQL connection lost before COMMIT");
  Result result;
  try {
    queue_text("COMMIT");
    result = sync("COMMIT on " + describe());
  } catch (...) {
    leave_pipeline();
    throw;
  }
  leave_pipeline();
  // A transaction that failed part-way ends in ROLLBACK even when asked to commit.
  if (std::strcmp(PQcmdStatus(result.get()), "COMMIT") != 0) {
    throw Error(Error::Kind::other, 0, "COMMIT on " + describe() + " rolled back: the transaction had failed");
  }
}

void PostgresDatabase::rollback() noexcept {
  in_transaction_ = false;
  if (pipelining_) {
    try {
      sync("ROLLBACK");
    } catch (...) {  // the failure that brought us here was reported already
    }
    leave_pipeline();
  }
  if (PQstatus(connection_) == CONNECTION_OK) PQclear(PQexec(connection_, "ROLLBACK"));
}

}  // namespace elgrande::db
