#pragma once

// What the start checks of a database besides opening it (server/main.cpp): commits lost
// since the last run, damaged rows anywhere in the command logs, and a write lock held by
// another program. docs/persistence.md#operations describes each answer.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "elgrande/db/database.hpp"
#include "elgrande/db/store.hpp"
#include "storage/commit_ledger.hpp"

namespace elgrande::server {

// The file beside a SQLite database that keeps its commit sequence.
std::filesystem::path ledger_file(const std::filesystem::path& database);

// Before the migrations, which would write over what SQLite dropped: a database holding
// fewer commits than its ledger recorded stops the start, unless `accept_lost`.
void refuse_lost_commits(db::Database& database, const std::filesystem::path& file, bool accept_lost);
// After them: the ledger, set to the database's sequence and synced, for the storage thread.
std::unique_ptr<CommitLedger> open_ledger(db::Database& database, const std::filesystem::path& file);

// Every chained command log checked from its first row (db::damaged_logs). Each damaged
// one is logged with its table; a game among `restored` whose log is damaged joins the
// failed, out of play like any other damaged log. Returns the damaged tables' ids.
std::vector<std::int64_t> scrub_logs(db::Database& database, db::Restored& restored);

// What a start (or --backup-to, --create-admin, --recompute-ratings) that found the write
// lock held by another program past the busy timeout says, instead of SQLite's bare
// "database is locked".
std::string locked_at_start(const std::filesystem::path& database, const db::Error& error);

}  // namespace elgrande::server
