#pragma once

// The operator's commands, run instead of serving (elgrande-server --help): a backup, the
// first admin, one table's log looked at, a process of a cluster drained, the ratings
// recomputed. Each exits with the
// process's exit code.

#include <cstdint>
#include <filesystem>
#include <string>

#include "ops/config.hpp"

namespace elgrande::server {

// --backup-to FILE: a consistent copy of a SQLite database, also while a server runs.
int backup(const Config& config, const std::filesystem::path& target);
// --create-admin NAME (the password on standard input).
int create_admin(const Config& config, const std::string& username);
// --verify-backup FILE: 0 for a sound backup, 1 for a damaged one.
int verify_backup(const std::filesystem::path& file);
// --check-table ID.
int check_table(const Config& config, std::int64_t id);
// --drain PROCESS: 0 once the process has stopped, 1 if there is none or it does not stop
// within a minute, 2 on SQLite.
int drain(const Config& config, const std::string& process);
// --recompute-ratings.
int recompute(const Config& config);

}  // namespace elgrande::server
