#include "elgrande/db/sqlite.hpp"

#include <sqlite3.h>

#include <utility>

namespace elgrande::db {
namespace {

Error::Kind kind_of(int code) {
  switch (code & 0xFF) {  // the primary code under the extended one
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Error::Kind::busy;
    case SQLITE_FULL:
      return Error::Kind::full;
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
      return Error::Kind::io;
    case SQLITE_CORRUPT:
      return Error::Kind::corrupt;
    case SQLITE_NOTADB:
      return Error::Kind::not_a_database;
    case SQLITE_READONLY:
      return Error::Kind::read_only;
    case SQLITE_CONSTRAINT:
      return Error::Kind::constraint;
    default:
      return Error::Kind::other;
  }
}

Error error_for(sqlite3* handle, int code, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += handle != nullptr ? sqlite3_errmsg(handle) : sqlite3_errstr(code);
  return Error(kind_of(code), code, message);
}

// Receives the single row of a PRAGMA that names a setting.
int capture_first_column(void* out, int columns, char** values, char** /*names*/) {
  if (columns > 0 && values[0] != nullptr) *static_cast<std::string*>(out) = values[0];
  return SQLITE_OK;
}

}  // namespace

SqliteDatabase::SqliteDatabase(const std::filesystem::path& file, const OpenOptions& options) : file_(file) {
  // SQLite counts every allocation under a process-wide lock unless told not to, before
  // its first use; nothing here reads the counts.
  static const int memory_statistics_off = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  (void)memory_statistics_off;
  // NOMUTEX: each connection belongs to one thread at a time (the server's database
  // thread), so SQLite's own locking would only cost time.
  int flags = SQLITE_OPEN_NOMUTEX;
  flags |= options.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
  if (options.create && !options.read_only) flags |= SQLITE_OPEN_CREATE;
  const int opened = sqlite3_open_v2(file_.c_str(), &handle_, flags, nullptr);
  if (opened != SQLITE_OK) {
    // SQLite hands back a handle even when opening fails; it still has to be closed.
    Error error = error_for(handle_, opened, "cannot open database " + file_.string());
    sqlite3_close(handle_);
    handle_ = nullptr;
    throw error;
  }
  sqlite3_extended_result_codes(handle_, 1);
  sqlite3_busy_timeout(handle_, options.busy_timeout_ms);

  try {
    // The first read of the file: a file that is not a database fails here.
    std::string mode;
    char* message = nullptr;
    const char* journal = options.read_only ? "PRAGMA journal_mode" : "PRAGMA journal_mode=WAL";
    const int code = sqlite3_exec(handle_, journal, capture_first_column, &mode, &message);
    sqlite3_free(message);
    if (code != SQLITE_OK) throw error_for(handle_, code, "cannot read database " + file_.string());
    // The pragma reports the mode actually in force; SQLite silently keeps the old one
    // when WAL is impossible (for example on some network file systems).
    if (!options.read_only && mode != "wal" && sqlite3_db_readonly(handle_, "main") == 1) {
      throw Error(Error::Kind::read_only, SQLITE_READONLY,
                  "cannot write database " + file_.string() + ": this process may only read it");
    }
    if (!options.read_only && mode != "wal") {
      throw Error(Error::Kind::other, SQLITE_ERROR,
                  "cannot enable write-ahead logging on " + file_.string() + ": journal mode is '" +
                      mode + "'");
    }
    execute("PRAGMA foreign_keys=ON");
    execute(options.durability == Durability::full ? "PRAGMA synchronous=FULL"
                                                   : "PRAGMA synchronous=NORMAL");
  } catch (...) {
    sqlite3_close(handle_);
    handle_ = nullptr;
    throw;
  }
}

SqliteDatabase::~SqliteDatabase() {
  // sqlite3_close_v2 defers the close until unfinalised statements are gone instead of
  // failing, which a destructor could not report anyway.
  sqlite3_close_v2(handle_);
}

Error SqliteDatabase::error(std::string_view what) const {
  return error_for(handle_, sqlite3_extended_errcode(handle_), what);
}

void SqliteDatabase::execute(const std::string& sql) {
  char* message = nullptr;
  const int code = sqlite3_exec(handle_, sql.c_str(), nullptr, nullptr, &message);
  if (code != SQLITE_OK) {
    std::string reason = message != nullptr ? message : sqlite3_errmsg(handle_);
    sqlite3_free(message);
    throw Error(kind_of(code), code, "SQL failed on " + file_.string() + ": " + reason);
  }
}

int SqliteDatabase::user_version() {
  Statement statement = prepare("PRAGMA user_version");
  statement.step();
  return static_cast<int>(statement.integer(0));
}

void SqliteDatabase::set_user_version(int version) {
  execute("PRAGMA user_version=" + std::to_string(version));
}

bool SqliteDatabase::read_only() const { return sqlite3_db_readonly(handle_, "main") == 1; }

std::int64_t SqliteDatabase::changes() const { return sqlite3_changes64(handle_); }

void SqliteDatabase::keep_log_on_close() {
  if (sqlite3_db_config(handle_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr) != SQLITE_OK) {
    throw error("cannot keep the write-ahead log of " + file_.string() + " on close");
  }
}

std::optional<std::string> SqliteDatabase::integrity_problem() {
  Statement check = prepare("PRAGMA quick_check(1)");
  if (!check.step()) return "the integrity check returned nothing";
  std::string found = check.text(0);
  if (found == "ok") return std::nullopt;
  return found;
}

void SqliteDatabase::backup_to(const std::filesystem::path& target) {
  Statement statement = prepare("VACUUM INTO ?1");
  statement.bind(1, target.string());
  statement.run();
}

bool SqliteDatabase::hand_off_checkpoints(std::function<void(int log_pages)> log_grew, int ceiling) {
  log_grew_ = std::move(log_grew);
  checkpoint_ceiling_ = ceiling;
  // Replaces the hook behind wal_autocheckpoint, which is what checkpoints in a commit.
  sqlite3_wal_hook(
      handle_,
      [](void* self, sqlite3* handle, const char* schema, int pages) {
        auto& database = *static_cast<SqliteDatabase*>(self);
        if (database.log_grew_) database.log_grew_(pages);
        if (pages >= database.checkpoint_ceiling_) {
          sqlite3_wal_checkpoint_v2(handle, schema, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        }
        return SQLITE_OK;
      },
      this);
  return true;
}

Database::Checkpoint SqliteDatabase::checkpoint() {
  Checkpoint done;
  const int code =
      sqlite3_wal_checkpoint_v2(handle_, nullptr, SQLITE_CHECKPOINT_PASSIVE, &done.log_pages, &done.copied_pages);
  // Busy: another connection is checkpointing; what it copies is copied.
  if (code == SQLITE_BUSY) return Checkpoint{};
  if (code != SQLITE_OK) throw error("cannot checkpoint the write-ahead log of " + file_.string());
  return done;
}

std::string SqliteDatabase::sqlite_version() { return sqlite3_libversion(); }

// --- Statements ---

namespace {

class SqliteStatement final : public Database::Prepared {
 public:
  SqliteStatement(sqlite3* handle, std::string_view sql) : handle_(handle) {
    const int code = sqlite3_prepare_v3(handle, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                        &statement_, nullptr);
    if (code != SQLITE_OK) throw error_for(handle, code, "cannot prepare '" + std::string(sql) + "'");
  }
  ~SqliteStatement() override { sqlite3_finalize(statement_); }
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  void bind(int index, std::int64_t value) override { check(sqlite3_bind_int64(statement_, index, value)); }
  // Exact: SQLite keeps a REAL as its 8 bytes.
  void bind(int index, double value) override { check(sqlite3_bind_double(statement_, index, value)); }
  void bind(int index, std::string_view text) override {
    check(sqlite3_bind_text64(statement_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  }
  void bind(int index, std::span<const std::byte> blob) override {
    check(sqlite3_bind_blob64(statement_, index, blob.data(), blob.size(), SQLITE_TRANSIENT));
  }
  void bind_null(int index) override { check(sqlite3_bind_null(statement_, index)); }

  bool step() override {
    const int code = sqlite3_step(statement_);
    if (code == SQLITE_ROW) return true;
    if (code == SQLITE_DONE) return false;
    throw error_for(handle_, code, sqlite3_sql(statement_));
  }
  void reset() override {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }

  bool is_null(int column) const override { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
  std::int64_t integer(int column) const override { return sqlite3_column_int64(statement_, column); }
  double real(int column) const override { return sqlite3_column_double(statement_, column); }
  std::string text(int column) const override {
    const auto* data = sqlite3_column_text(statement_, column);
    const int size = sqlite3_column_bytes(statement_, column);
    return data ? std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size)) : std::string();
  }
  std::vector<std::byte> blob(int column) const override {
    const auto* data = static_cast<const std::byte*>(sqlite3_column_blob(statement_, column));
    const int size = sqlite3_column_bytes(statement_, column);
    return data ? std::vector<std::byte>(data, data + size) : std::vector<std::byte>();
  }

 private:
  void check(int code) const {
    if (code != SQLITE_OK) throw error_for(handle_, code, "bind");
  }

  sqlite3* handle_;
  sqlite3_stmt* statement_ = nullptr;
};

}  // namespace

std::unique_ptr<Database::Prepared> SqliteDatabase::prepare_statement(std::string_view sql) {
  return std::make_unique<SqliteStatement>(handle_, sql);
}

// --- Transactions ---

void SqliteDatabase::begin() { execute("BEGIN IMMEDIATE"); }

void SqliteDatabase::commit() { execute("COMMIT"); }

void SqliteDatabase::rollback() noexcept {
  // A failed COMMIT may already have rolled back; a second ROLLBACK then fails harmlessly.
  sqlite3_exec(handle_, "ROLLBACK", nullptr, nullptr, nullptr);
}

}  // namespace elgrande::db
