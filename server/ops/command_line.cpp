// The command line: the actions that run once and exit, the config file it names, and
// each setting's flag over the file's value; and the --help text that lists them.

#include <algorithm>
#include <charconv>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "ops/config.hpp"
#include "ops/settings.hpp"

namespace elgrande::server {
namespace {

using detail::Kind;
using detail::Setting;
using nlohmann::json;

// Command-line values are text; integers are parsed strictly so "80x" is not 80.
json flag_value_as_json(Kind kind, std::string_view value) {
  if (kind == Kind::text) return json(std::string(value));
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (error != std::errc() || end != value.data() + value.size() || value.empty()) {
    return json(std::string(value));  // the setter then reports "expected an integer"
  }
  return json(number);
}

// Settings that only make sense together, checked once all of them are read.
void check_combinations(const Config& config) {
  if (config.tls_certificate.empty() != config.tls_private_key.empty()) {
    throw ConfigError("tls_certificate and tls_private_key go together: set both, or neither");
  }
  if (config.http_port != 0 && !config.tls()) {
    throw ConfigError("http_port redirects to HTTPS, so it needs tls_certificate and tls_private_key");
  }
  if (config.http_port != 0 && config.http_port == config.port) {
    throw ConfigError("http_port must differ from port");
  }
  if (config.postgresql() && config.backup_every > 0) {
    throw ConfigError("backup_every: the server backs up a SQLite database only; back up PostgreSQL with pg_dump "
                      "(docs/persistence.md#backups), and leave backup_every at 0");
  }
}

// An action's value, from "--flag value" or "--flag=value" (empty when missing), or
// nothing when `argument` is another flag.
std::optional<std::string> action_value(std::string_view argument, std::string_view flag, int& i, int argc,
                                        const char* const argv[]) {
  if (argument == flag) return i + 1 < argc ? std::string(argv[++i]) : std::string();
  if (argument.starts_with(flag) && argument.substr(flag.size()).starts_with('=')) {
    return std::string(argument.substr(flag.size() + 1));
  }
  return std::nullopt;
}

struct Override {
  const Setting* setting;
  std::string value;
};

}  // namespace

Invocation parse_command_line(int argc, const char* const argv[]) {
  Invocation invocation;
  std::optional<std::filesystem::path> config_file;
  std::vector<Override> overrides;
  std::optional<std::filesystem::path> checked_file;  // --check-config FILE

  for (int i = 1; i < argc; ++i) {
    std::string_view argument = argv[i];
    if (argument == "--help" || argument == "-h") {
      invocation.help = true;
      return invocation;
    }
    if (const auto target = action_value(argument, "--backup-to", i, argc, argv)) {
      if (target->empty()) throw ConfigError("--backup-to: missing file name");
      invocation.backup_to = std::filesystem::path(*target);
      continue;
    }
    if (const auto id = action_value(argument, "--check-table", i, argc, argv)) {
      std::int64_t table = 0;
      const auto [end, error] = std::from_chars(id->data(), id->data() + id->size(), table);
      if (id->empty() || error != std::errc() || end != id->data() + id->size() || table < 1) {
        throw ConfigError("--check-table: expects a table id");
      }
      invocation.check_table = table;
      continue;
    }
    if (const auto process = action_value(argument, "--drain", i, argc, argv)) {
      if (process->empty()) throw ConfigError("--drain: expects a process's id or address");
      invocation.drain = std::string(*process);
      continue;
    }
    if (const auto file = action_value(argument, "--verify-backup", i, argc, argv)) {
      if (file->empty()) throw ConfigError("--verify-backup: missing file name");
      invocation.verify_backup = std::filesystem::path(*file);
      continue;
    }
    if (argument == "--check-config" || argument.starts_with("--check-config=")) {
      // The file is optional: "--check-config" alone checks what --config (or the default) names.
      invocation.check_config = true;
      if (argument.starts_with("--check-config=")) {
        checked_file = std::string(argument.substr(15));
        if (checked_file->empty()) throw ConfigError("--check-config: missing file name");
      } else if (i + 1 < argc && !std::string_view(argv[i + 1]).starts_with("-")) {
        checked_file = argv[++i];
      }
      continue;
    }
    if (argument == "--recompute-ratings" || argument == "--accept-lost-commits") {
      (argument == "--recompute-ratings" ? invocation.recompute_ratings : invocation.config.accept_lost_commits) = true;
      continue;
    }
    if (auto username = action_value(argument, "--create-admin", i, argc, argv)) {
      if (username->empty()) throw ConfigError("--create-admin: missing username");
      invocation.create_admin = std::move(*username);
      continue;
    }

    // Both "--flag value" and "--flag=value" are accepted.
    std::string_view flag = argument;
    std::optional<std::string> value;
    if (const auto equals = argument.find('=');
        argument.starts_with("--") && equals != std::string_view::npos) {
      flag = argument.substr(0, equals);
      value = std::string(argument.substr(equals + 1));
    }

    const Setting* setting = detail::find_setting_by_flag(flag);
    if (flag != "--config" && setting == nullptr) {
      throw ConfigError("unknown argument '" + std::string(argument) + "'");
    }
    if (!value) {
      if (i + 1 >= argc) throw ConfigError(std::string(flag) + ": missing value");
      value = argv[++i];
    }

    if (flag == "--config") {
      config_file = *value;
    } else {
      overrides.push_back({setting, std::move(*value)});
    }
  }

  if (checked_file) {
    if (config_file && *config_file != *checked_file) {
      throw ConfigError("--check-config " + checked_file->string() + " and --config " + config_file->string() +
                        " name different files");
    }
    config_file = checked_file;
  }
  // An explicit --config must exist; the default file is optional.
  if (config_file) {
    invocation.config_file = *config_file;
  } else if (std::filesystem::exists(kDefaultConfigFile)) {
    invocation.config_file = std::filesystem::path(kDefaultConfigFile);
  }
  if (invocation.config_file) detail::apply_config_file(invocation.config, *invocation.config_file);

  for (const Override& change : overrides) {
    try {
      change.setting->set(invocation.config,
                          flag_value_as_json(change.setting->kind, change.value));
    } catch (const ConfigError& error) {
      throw ConfigError(std::string(change.setting->flag) + ": " + error.what() + ", got '" +
                        change.value + "'");
    }
  }
  check_combinations(invocation.config);
  return invocation;
}

std::string usage(std::string_view program) {
  const Config defaults;
  std::ostringstream out;
  out << "Usage: " << program << " [--config FILE] [--OPTION VALUE]...\n"
      << "\n"
      << "Authoritative server for the board game El Grande.\n"
      << "Each setting comes from the embedded default, overridden by the config file\n"
      << "(" << kDefaultConfigFile << " if --config is not given and it exists), overridden\n"
      << "by the command line. --OPTION=VALUE works too.\n"
      << "\n"
      << "  --config FILE            JSON config file; must exist when given\n";
  for (const Setting& setting : detail::settings()) {
    std::string left = "  " + std::string(setting.flag) + " VALUE";
    left.resize(std::max<std::size_t>(left.size() + 1, 27), ' ');
    out << left << setting.meaning << "\n"
        << std::string(27, ' ') << "(key " << setting.key << ", default " << setting.show(defaults)
        << ")\n";
  }
  out << "  --backup-to FILE         copy the database (while a server may be running on it)\n"
      << "                           into FILE, which must not exist, then exit\n"
      << "  --verify-backup FILE     check a backup file as the scheduled backups are checked\n"
      << "                           (every page, every command log's hash chain); exit 0 if\n"
      << "                           sound, 1 if damaged\n"
      << "  --check-table ID         report on table ID's command log (gaps, its hash chain,\n"
      << "                           its snapshot) from the database, then exit\n"
      << "  --create-admin NAME      make the account NAME an admin, with the password read\n"
      << "                           from standard input (made if it does not exist), then exit\n"
      << "  --check-config [FILE]    check the configuration (FILE, else --config's or the\n"
      << "                           default) as a start would, without opening a port or the\n"
      << "                           database: print \"configuration OK: FILE\" and exit 0, or the\n"
      << "                           fault and exit 2 (the file) or 1 (folders and files it names)\n"
      << "  --drain PROCESS          ask the server process PROCESS (its id or address in the\n"
      << "                           processes table) on a PostgreSQL database to stop as on\n"
      << "                           SIGTERM, and wait until it has; exit 0 once it has\n"
      << "  --recompute-ratings      replay every rated game in the order it was rated, store\n"
      << "                           the ratings that gives, report what differed, then exit\n"
      << "  --accept-lost-commits    start although the database holds fewer commits than\n"
      << "                           recorded beside it (docs/persistence.md#lost-commits)\n"
      << "  -h, --help               print this help and exit\n"
      << "\n"
      << "Exit status: 0 after a clean shutdown on SIGINT or SIGTERM (or a backup, a sound\n"
      << "log or backup file, or a recompute), 1 if the server or the backup fails or the log or backup file is\n"
      << "damaged, 2 for a bad command\n"
      << "line or configuration.\n";
  return out.str();
}
}  // namespace elgrande::server
