#pragma once

// What config.cpp and command_line.cpp share: the table of settings, each readable from
// the config file by its key and from the command line by its flag.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "ops/config.hpp"

namespace elgrande::server::detail {

enum class Kind { text, integer };

struct Setting {
  std::string_view key;   // in the JSON config file
  std::string_view flag;  // the command-line override
  Kind kind;
  std::string_view meaning;  // one line of --help
  void (*set)(Config&, const nlohmann::json&);
  std::string (*show)(const Config&);  // for --help, so it never disagrees with Config
};

std::span<const Setting> settings();
const Setting* find_setting_by_flag(std::string_view flag);  // null: no such flag

// Applies every key of the JSON object in `file`; an unknown key or a bad value throws
// ConfigError naming the file and the key.
void apply_config_file(Config& config, const std::filesystem::path& file);

}  // namespace elgrande::server::detail
