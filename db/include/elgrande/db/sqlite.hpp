#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "elgrande/db/database.hpp"

// Forward-declared so that users of SqliteDatabase do not inherit sqlite3.h.
struct sqlite3;

namespace elgrande::db {

// One open SQLite connection, the embedded default. Opening switches the database to
// write-ahead logging, so readers never block the single writer, and turns foreign keys on.
class SqliteDatabase final : public Database {
 public:
  explicit SqliteDatabase(const std::filesystem::path& file, const OpenOptions& options = {});
  ~SqliteDatabase() override;

  Backend backend() const noexcept override { return Backend::sqlite; }
  std::string describe() const override { return file_.string(); }
  void execute(const std::string& sql) override;
  // PRAGMA user_version.
  int user_version() override;
  void set_user_version(int version) override;
  std::int64_t changes() const override;
  // Also true when opened for writing on a file this process may not write, which SQLite
  // then opens read-only without a word.
  bool read_only() const override;
  void begin() override;  // BEGIN IMMEDIATE
  void commit() override;
  void rollback() noexcept override;

  std::string engine() const override { return "SQLite " + sqlite_version(); }
  // PRAGMA quick_check.
  std::optional<std::string> integrity_problem() override;

  // VACUUM INTO.
  void backup_to(const std::filesystem::path& target) override;

  // The last connection to close copies the write-ahead log into the database and deletes
  // it. After this call this one does not: a start refused for lost commits leaves both
  // files as they were (server/storage/start_checks.hpp).
  void keep_log_on_close() override;

  // Checkpoints. By default SQLite copies the write-ahead log back into the database file
  // inside the commit that takes the log past 1,000 pages: that commit, and every write
  // waiting for the next one, waits for the copy and its syncs. After this call no commit
  // of this connection checkpoints; instead `log_grew` is called on the committing thread
  // after each commit with the log's length in pages, for another connection to
  // checkpoint (server/storage/checkpointer.hpp). Past `ceiling` pages a commit
  // checkpoints after all, as SQLite would, so the log cannot grow without bound when no
  // one else copies it. `log_grew` must not throw. Returns true.
  bool hand_off_checkpoints(std::function<void(int log_pages)> log_grew, int ceiling) override;

  // Copies what it can of the log into the database file, waiting for no one (a passive
  // checkpoint): the pages committed since a reader began, or while it ran, stay in the
  // log for next time. Once all are copied, the next commit starts the log afresh.
  Checkpoint checkpoint() override;

  const std::filesystem::path& file() const noexcept { return file_; }
  sqlite3* handle() const noexcept { return handle_; }

  // Version of the SQLite library linked at run time (not the header it was built with).
  static std::string sqlite_version();

  // The error for the connection's last failure, prefixed with what was being done.
  Error error(std::string_view what) const;

 protected:
  std::unique_ptr<Prepared> prepare_statement(std::string_view sql) override;

 private:
  std::filesystem::path file_;
  sqlite3* handle_ = nullptr;
  std::function<void(int)> log_grew_;
  int checkpoint_ceiling_ = 0;
};

}  // namespace elgrande::db
