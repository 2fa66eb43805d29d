#pragma once

// --check-config: what a start would refuse of a configuration, found without opening a
// port or the database, for an operator before a restart (and systemd's ExecStartPre).

#include <filesystem>
#include <optional>

#include "ops/config.hpp"

namespace elgrande::server {

// The file itself was checked as it was read (unknown keys, types, ranges: a ConfigError
// before this runs). Checks the folders and files it names; prints "configuration OK: FILE"
// and returns 0, or prints each fault and returns 1. Creates nothing.
int check_config(const Config& config, const std::optional<std::filesystem::path>& file);

}  // namespace elgrande::server
