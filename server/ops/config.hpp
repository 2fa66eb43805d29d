#pragma once

#include <spdlog/common.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "elgrande/games/module.hpp"
#include "elgrande/db/database.hpp"

namespace elgrande::server {

// Everything the operator can set. The initialisers are the embedded defaults, used for
// any key that neither the config file nor the command line sets.
struct Config {
  std::string bind_address = "127.0.0.1";
  std::uint16_t port = 8080;  // 0 asks the kernel for a free port
  std::filesystem::path data_dir = "data";
  std::string database_file = "elgrande.sqlite";
  std::filesystem::path web_root = "clients/web";
  // HTTPS and WSS on `port` (docs/deploy.md): the certificate chain and its key as PEM
  // files, both or neither; `http_port` then answers plain HTTP with a redirect (0: no
  // such port). certbot's webroot folder is served at /.well-known/acme-challenge/ on
  // whichever port speaks plain HTTP.
  std::filesystem::path tls_certificate;
  std::filesystem::path tls_private_key;
  std::uint16_t http_port = 0;
  std::filesystem::path acme_challenge_dir;
  unsigned threads = 0;  // 0 means one per hardware thread
  spdlog::level::level_enum log_level = spdlog::level::info;
  // WebSocket limits, per connection.
  std::size_t max_message_bytes = 64 * 1024;  // larger messages close with code 1009
  std::size_t max_queued_messages = 256;      // a reader this far behind is dropped
  unsigned messages_per_second = 20;          // token-bucket refill rate
  unsigned message_burst = 40;                // token-bucket capacity
  unsigned bot_delay_ms = 600;  // a server bot's pause before each command
  // Server bots (docs/ai.md): the level of a bot a host adds without naming one (and of
  // play-now bots), the level of the bot that answers for a seat whose time ran out and
  // plays a resigned or replaced seat, the threads that search, a decision's time limit,
  // and playouts per decision (0: each level's own).
  games::BotLevel bot_level = games::BotLevel::medium;
  games::BotLevel replacement_bot_level = games::BotLevel::medium;
  unsigned bot_threads = 1;
  unsigned bot_think_ms = 2000;
  unsigned bot_iterations = 0;
  db::Durability durability = db::Durability::full;
  // Under load, how long the storage thread gathers writes before a commit (Storage).
  unsigned commit_delay_us = 2000;
  bool integrity_check = true;  // the database's integrity check before anything else
  // Scheduled backups of a SQLite database (docs/persistence.md#backups): every this many
  // seconds (0: none), keeping this many verified ones, in this folder (empty: `backups`
  // beside the database file).
  unsigned backup_every = 0;
  unsigned backup_keep = 7;
  std::filesystem::path backup_dir;
  // --accept-lost-commits (no config key: it is meant for one start): start although the
  // database holds fewer commits than its commit sequence file recorded.
  bool accept_lost_commits = false;
  std::string webhook_url;      // empty: no turn notifications
  std::string webhook_ca_file;  // extra CAs for an https webhook
  // Web pages on these origins ("https://example.org") may open WebSockets besides the
  // server's own host; "*" allows any. Clients without an Origin (not browsers) always may.
  std::vector<std::string> allowed_origins;
  // Peers whose X-Forwarded-For is believed (a reverse proxy); others are taken as they are.
  std::vector<std::string> trusted_proxies;
  // Caps on creation; 0 switches one off.
  unsigned new_identities_per_address_per_hour = 30;
  unsigned open_tables_per_player = 10;  // tables a player hosts that have not finished
  unsigned reviews_per_day = 20;  // the strong bot's second opinions a player may ask for (docs/replays.md)
  // The least role whose accounts may create tournaments: "player" (any account),
  // "moderator" or "admin".
  std::string tournament_creators = "player";
  // Who may register for tournaments: "accounts", or "everyone" (guests too).
  std::string tournament_entrants = "accounts";
  // Connections served at once; 0: the process's descriptor limit less a reserve for the
  // database, files and health checks.
  unsigned max_connections = 0;
  // Accounts: what one password hash costs (Argon2id, OWASP's minimum by default), the
  // threads that compute them, how long an unused session lasts, and failed sign-ins
  // allowed per 10 minutes.
  unsigned password_memory_kib = 19 * 1024;
  unsigned password_passes = 2;
  unsigned password_threads = 1;
  unsigned session_idle_days = 30;
  unsigned sign_in_failures_per_username = 10;
  unsigned sign_in_failures_per_address = 200;

  // Notices (docs/notifications.md): where links in mails and notifications point, the
  // mail relay (no host: no mail), when a turn is worth a notice, retries and the digest.
  std::string public_url;
  std::string smtp_host;
  unsigned smtp_port = 587;
  std::string smtp_security = "starttls";  // starttls, tls (implicit, usually port 465) or none
  std::string smtp_user;
  std::string smtp_password;
  std::string smtp_from;  // "El Grande <noreply@example.org>" or just the address
  std::string smtp_ca_file;  // CA certificates the relay's is checked against besides the system's
  unsigned notice_turn_after_seconds = 600;
  unsigned notice_retry_seconds = 60;
  unsigned digest_hour = 7;      // UTC
  unsigned tournament_reminder_minutes = 60;  // before a tournament starts, or when its check-in opens
  bool push_over_http = false;  // push endpoints may be http:// (for tests on loopback)

  // A PostgreSQL URL (docs/scaling.md); empty: the SQLite file database_path().
  std::string database;
  // host:port where the other processes on the database reach this one when it leads;
  // empty: the address it listens on (loopback for a wildcard).
  std::string cluster_address;

  std::filesystem::path database_path() const { return data_dir / database_file; }
  bool postgresql() const { return !database.empty(); }
  bool tls() const { return !tls_certificate.empty(); }
  std::filesystem::path backup_folder() const { return backup_dir.empty() ? data_dir / "backups" : backup_dir; }
  // What db::open takes: the URL, or the SQLite file.
  std::string database_location() const { return postgresql() ? database : database_path().string(); }

  // The number of I/O threads to start: `threads`, or with 0, io_threads_for(cores).
  unsigned io_threads() const;
};

// The I/O threads to start when the configuration leaves it to the machine: one per core,
// less the one the storage thread needs (it commits and syncs beside the event loop), and
// at least one. On two cores, a second I/O thread only contends with the first and with
// the storage thread for the io_context's lock and the cores (docs/performance.md, step 12).
unsigned io_threads_for(unsigned cores);

// Bad configuration. The message is complete and addressed to the operator.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the command line asked for: either the usage text, or a server with this config.
struct Invocation {
  bool help = false;
  std::optional<std::filesystem::path> backup_to;  // --backup-to: copy the database and exit
  std::optional<std::int64_t> check_table;         // --check-table: report on a table's log and exit
  std::optional<std::filesystem::path> verify_backup;  // --verify-backup: check a backup file and exit
  std::optional<std::string> create_admin;         // --create-admin: make this account an admin and exit
  bool recompute_ratings = false;                  // --recompute-ratings: replay every rated game and exit
  bool check_config = false;                       // --check-config: check the configuration and exit
  std::optional<std::string> drain;                // --drain: ask a process of a cluster to drain, and wait
  std::optional<std::filesystem::path> config_file;  // the file the configuration was read from, if any
  Config config;
};

// Read when --config is not given, relative to the working directory; may be absent.
inline constexpr std::string_view kDefaultConfigFile = "config/server.json";

// Layers the embedded defaults, the config file and the command-line overrides, in that
// order. Throws ConfigError for an unknown flag, a missing value or a bad value.
Invocation parse_command_line(int argc, const char* const argv[]);

std::string usage(std::string_view program);

}  // namespace elgrande::server
