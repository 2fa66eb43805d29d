#include "storage/start_checks.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "elgrande/db/commit_sequence.hpp"
#include "elgrande/db/log_check.hpp"
#include "elgrande/db/database.hpp"

namespace elgrande::server {
namespace {

// The schema that brought the commit sequence (db/src/schema_recent.hpp).
constexpr int kCommitSequenceSchema = 13;

}  // namespace

std::filesystem::path ledger_file(const std::filesystem::path& database) { return database.string() + ".commits"; }

void refuse_lost_commits(db::Database& database, const std::filesystem::path& file, bool accept_lost) {
  if (database.user_version() < kCommitSequenceSchema) return;  // no sequence yet, nor a ledger
  std::error_code missing;
  if (!std::filesystem::exists(file, missing)) return;
  const CommitLedger ledger(file);
  const std::optional<std::int64_t> recorded = decode_ledger(std::as_bytes(std::span(ledger.found())));
  if (!recorded) return;  // open_ledger says so, and starts it again
  const std::int64_t held = db::CommitSequence(database).read();
  const std::string numbers = "it holds " + std::to_string(held) + " committed transactions, but " +
                              file.string() + " recorded " + std::to_string(*recorded) + ": the last " +
                              std::to_string(*recorded - held);
  switch (judge_ledger(*recorded, held, accept_lost)) {
    case LedgerVerdict::sound:
      return;
    case LedgerVerdict::lost_accepted:
      spdlog::warn("database {}: {} are lost, as --accept-lost-commits accepts; the commit sequence goes on from {}",
                   database.describe(), numbers, held);
      return;
    case LedgerVerdict::lost:
      // The sound part of the log stays in the log, beside the frames SQLite dropped.
      database.keep_log_on_close();
      throw std::runtime_error(
          "database " + database.describe() + " has lost committed data: " + numbers +
          " are gone (SQLite drops a damaged frame of the write-ahead log and every frame after it, or the "
          "database was replaced by an older copy). The copy of the write-ahead log taken at start (" +
          database.describe() + "-wal.<time>.bak) keeps every frame as it was (docs/persistence.md#lost-commits); "
          "to start with what the database holds and lose those transactions, start once with "
          "--accept-lost-commits");
  }
}

std::unique_ptr<CommitLedger> open_ledger(db::Database& database, const std::filesystem::path& file) {
  auto ledger = std::make_unique<CommitLedger>(file);
  const std::int64_t held = db::CommitSequence(database).read();
  if (!ledger->found().empty() && !decode_ledger(std::as_bytes(std::span(ledger->found())))) {
    spdlog::warn("{} does not hold a commit sequence ({} bytes); kept again from the database's {}: commits lost "
                 "before this start cannot be told",
                 file.string(), ledger->found().size(), held);
  } else if (ledger->found().empty() && held > 0) {
    spdlog::warn("{} is missing; kept again from the database's {}: commits lost before this start cannot be told",
                 file.string(), held);
  }
  ledger->record_synced(held);
  return ledger;
}

std::vector<std::int64_t> scrub_logs(db::Database& database, db::Restored& restored) {
  const auto started = std::chrono::steady_clock::now();
  const std::vector<db::DamagedLog> damaged = db::damaged_logs(database);
  std::unordered_map<std::int64_t, std::string> why;
  std::vector<std::int64_t> ids;
  for (const db::DamagedLog& log : damaged) {
    spdlog::critical("the command log of table {} ({}) is damaged: {}; its record is not exported and it is not "
                     "played; see elgrande-server --check-table {}",
                     log.table, log.status, log.damage, log.table);
    why.emplace(log.table, log.damage);
    ids.push_back(log.table);
  }
  std::erase_if(restored.tables, [&](const db::RestoredTable& table) {
    const auto found = why.find(table.table.id);
    if (found == why.end()) return false;
    restored.failed.push_back(db::Unrestorable{table.table.id, "its command log is damaged: " + found->second});
    return true;
  });
  const auto took = std::chrono::steady_clock::now() - started;
  spdlog::info("checked every command log against its hash chain in {} ms: {} damaged",
               std::chrono::duration_cast<std::chrono::milliseconds>(took).count(), damaged.size());
  return ids;
}

std::string locked_at_start(const std::filesystem::path& database, const db::Error& error) {
  return "database " + database.string() +
         " is locked by another program that holds its write lock (an sqlite3 shell or a tool in a write "
         "transaction), and stayed so for the " + std::to_string(db::OpenOptions{}.busy_timeout_ms / 1000) +
         " s the start waits for it (" + error.what() + "); end that program's transaction, then start again";
}

}  // namespace elgrande::server
