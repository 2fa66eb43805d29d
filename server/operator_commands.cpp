#include "operator_commands.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "accounts/credentials.hpp"
#include "common/unix_time.hpp"
#include "database_start.hpp"
#include "elgrande/db/processes.hpp"
#include "elgrande/db/store.hpp"
#include "identity/identities.hpp"
#include "ratings/rated_game.hpp"
#include "storage/backups.hpp"

namespace elgrande::server {

int backup(const Config& config, const std::filesystem::path& target) {
  if (config.postgresql()) {
    throw std::runtime_error("--backup-to copies a SQLite database; back up PostgreSQL with pg_dump (docs/scaling.md)");
  }
  refuse_lone_write_ahead_log(config.database_path());
  const std::unique_ptr<db::Database> database = db::open(config.database_path().string(), {.create = false});
  const auto started = std::chrono::steady_clock::now();
  database->backup_to(target);
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  spdlog::info("backed up {} to {} in {} ms", database->describe(), target.string(), took.count());
  return 0;
}

// The same check a scheduled backup passes before it counts, for a file the operator means to
// restore from.
int verify_backup(const std::filesystem::path& file) {
  const auto started = std::chrono::steady_clock::now();
  const BackupCheck check = check_backup(file);
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  if (check.problem) {
    std::cout << file.string() << ": damaged: " << *check.problem << "; do not restore from it\n";
    return 1;
  }
  std::cout << file.string() << ": sound (schema version " << check.schema_version
            << "; every page and every command log's hash chain checked in " << took.count() << " ms)\n";
  return 0;
}

// --create-admin NAME: the first admin, made from the command line so that no default
// password exists anywhere. An existing account is made an admin and takes the new
// password (the way back in for an operator who lost it); otherwise a player and its
// account are made. Run it with the server stopped: the server keeps accounts in memory.
int create_admin(const Config& config, const std::string& username) {
  if (const auto why_not = why_not_a_username(username)) throw std::runtime_error("username: " + *why_not);
  std::string password;
  std::getline(std::cin, password);
  if (const auto why_not = why_not_a_password(password)) {
    throw std::runtime_error("password (one line on standard input): " + *why_not);
  }
  const DatabaseOwnership ownership(config);
  std::unique_ptr<db::Database> database = open_database(config);
  const std::string hash =
      hash_password(password, PasswordCost{std::size_t{config.password_memory_kib} * 1024, config.password_passes});
  db::Store store(*database);
  db::Transaction transaction(*database);
  if (const auto account = store.accounts().find(username)) {
    store.accounts().set_password(account->player, hash);
    store.accounts().set_role(account->player, "admin");
    transaction.commit();
    spdlog::info("account {} (player {}) is an admin, with the new password", account->username, account->player);
    return 0;
  }
  const std::int64_t player = store.accounts().max_player_id() + 1;
  const db::UnixMillis now = unix_milliseconds();
  store.insert_player({player, username, hash_token(new_token()), now});
  store.accounts().insert({player, username, hash, "admin", now});
  transaction.commit();
  spdlog::info("made the admin account {} (player {})", username, player);
  return 0;
}

// The operator's look at one table's log: what is stored, where it breaks. Exit 0 for a
// sound log, 1 for a damaged one (or no such table).
int check_table(const Config& config, std::int64_t id) {
  if (!config.postgresql()) refuse_lone_write_ahead_log(config.database_path());
  const std::unique_ptr<db::Database> database =
      db::open(config.database_location(), db::OpenOptions{.create = false, .read_only = true});
  db::Store store(*database);
  const db::Store::LogCheck check = store.check_log(id);
  if (!check.table_found) {
    std::cout << "no table " << id << " in " << database->describe() << "\n";
    return 1;
  }
  const auto optional = [](const std::optional<std::int64_t>& value) {
    return value ? std::to_string(*value) : std::string("none");
  };
  std::cout << "table " << id << " (" << check.status << ")\n"
            << "  commands stored: " << check.rows << "\n"
            << "  commands recorded with the table: " << optional(check.recorded_length)
            << (check.recorded_length ? "" : " (a log from before hash chains)") << "\n"
            << "  first missing command: " << optional(check.first_gap) << "\n"
            << "  first command that breaks the hash chain: " << optional(check.first_bad_row) << "\n"
            << "  snapshot at command: " << optional(check.snapshot_seq) << "\n"
            << "  verdict: "
            << (check.head_matches && !check.first_gap ? "sound"
                : check.recorded_length                ? "damaged: restore the database from a backup"
                                                       : "not chained, cannot tell")
            << "\n";
  return check.head_matches && !check.first_gap ? 0 : 1;
}

// --recompute-ratings: every rated game replayed with this server's rating code, in one
// transaction, with the server stopped (it keeps ratings in memory).
int recompute(const Config& config) {
  const DatabaseOwnership ownership(config);
  std::unique_ptr<db::Database> database = open_database(config);
  db::Store store(*database);
  db::Transaction transaction(*database);
  const auto started = std::chrono::steady_clock::now();
  const RecomputeReport report = recompute_ratings(store, true);
  transaction.commit();
  std::cout << "replayed " << report.games << " rated games (" << report.changes << " rating changes) in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count()
            << " ms\n"
            << "  rating changes that differed from the stored ones: " << report.changes_differing << "\n"
            << "  current ratings that differed: " << report.ratings_differing << " of " << report.ratings << "\n"
            << "  largest difference in mu or sigma: " << report.largest_difference << "\n"
            << (report.changes_differing + report.ratings_differing == 0 ? "  the stored ratings were reproduced exactly\n"
                                                                         : "  the replayed ratings are stored now\n");
  return 0;
}

int drain(const Config& config, const std::string& process) {
  if (!config.postgresql()) {
    std::cerr << "--drain: processes drain on a shared PostgreSQL database; stop a lone server with SIGTERM\n";
    return 2;
  }
  const std::unique_ptr<db::Database> database = db::open(config.database_location(), {.create = false});
  const std::vector<std::string> marked = db::drain_process(*database, process);
  if (marked.empty()) {
    std::cout << "no process " << process << " on " << database->describe() << " (SELECT * FROM processes)\n";
    return 1;
  }
  const auto listed = [&] {
    for (const db::ProcessRow& row : db::processes(*database)) {
      if (std::find(marked.begin(), marked.end(), row.id) != marked.end()) return true;
    }
    return false;
  };
  // It stops at its next look at its row, within a second, then as on SIGTERM.
  const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (listed()) {
    if (std::chrono::steady_clock::now() > until) {
      std::cout << "process " << process << " has not stopped within a minute\n";
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::cout << "process " << marked.front() << " drained and stopped\n";
  return 0;
}

}  // namespace elgrande::server
