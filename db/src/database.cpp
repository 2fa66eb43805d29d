#include "elgrande/db/database.hpp"

#include "elgrande/db/postgres.hpp"
#include "elgrande/db/sqlite.hpp"

namespace elgrande::db {

Statement Database::prepare(std::string_view sql) { return Statement(prepare_statement(sql)); }

bool is_postgresql_url(std::string_view location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::unique_ptr<Database> open(const std::string& location, const OpenOptions& options) {
  if (is_postgresql_url(location)) return std::make_unique<PostgresDatabase>(location, options);
  return std::make_unique<SqliteDatabase>(location, options);
}

void Database::backup_to(const std::filesystem::path& /*target*/) {
  throw std::runtime_error("a backup copies a SQLite database; back up " + describe() + " with its own tools");
}

template <class Work>
void Statement::reset_after(Work work) {
  // reset() also clears a statement's sticky error, so it must follow a failure too.
  try {
    work();
  } catch (...) {
    reset();
    throw;
  }
  reset();
}

void Statement::run() {
  reset_after([this] {
    while (step()) {
    }
  });
}

void Statement::send() {
  reset_after([this] { prepared_->send(); });
}

Transaction::Transaction(Database& database) : database_(database) { database_.begin(); }

Transaction::~Transaction() {
  if (!done_) database_.rollback();
}

void Transaction::commit() {
  database_.commit();
  done_ = true;
}

}  // namespace elgrande::db
