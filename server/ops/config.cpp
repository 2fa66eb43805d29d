#include "ops/config.hpp"

#include <algorithm>
#include <array>
#include <boost/asio/ip/address.hpp>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>
#include <utility>
#include <vector>

#include "ops/settings.hpp"

namespace elgrande::server {
namespace {

using detail::Kind;
using detail::Setting;
using nlohmann::json;

// Each setter checks one value and throws ConfigError saying what was expected; the
// caller adds where the value came from, so a file and a flag get the same checks.

std::int64_t integer_in(const json& value, std::int64_t low, std::int64_t high) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < low ||
      value.get<std::int64_t>() > high) {
    throw ConfigError("expected an integer from " + std::to_string(low) + " to " +
                      std::to_string(high));
  }
  return value.get<std::int64_t>();
}

std::string text(const json& value) {
  if (!value.is_string() || value.get<std::string>().empty()) {
    throw ConfigError("expected a non-empty string");
  }
  return value.get<std::string>();
}

void set_bind_address(Config& config, const json& value) {
  std::string address = text(value);
  boost::system::error_code ec;
  boost::asio::ip::make_address(address, ec);
  if (ec) throw ConfigError("expected an IPv4 or IPv6 address such as 127.0.0.1 or 0.0.0.0");
  config.bind_address = std::move(address);
}

void set_port(Config& config, const json& value) {
  config.port = static_cast<std::uint16_t>(integer_in(value, 0, 65535));
}

void set_data_dir(Config& config, const json& value) {
  config.data_dir = text(value);
}

void set_database_file(Config& config, const json& value) {
  std::string file = text(value);
  // A bare name keeps every file the server writes inside data_dir.
  if (file.find('/') != std::string::npos || file == "." || file == "..") {
    throw ConfigError("expected a file name without directories");
  }
  config.database_file = std::move(file);
}

void set_database(Config& config, const json& value) {
  std::string url = text(value);
  if (!url.empty() && !db::is_postgresql_url(url)) {
    throw ConfigError("expected a PostgreSQL URL, postgresql://user@host:port/database, or nothing for SQLite");
  }
  config.database = std::move(url);
}

// The URL without its password, if it has one: what may be shown.
std::string without_password(const std::string& url) {
  const std::size_t scheme = url.find("://");
  const std::size_t at = url.find('@');
  if (scheme == std::string::npos || at == std::string::npos) return url;
  const std::size_t colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon) + ":***" + url.substr(at);
}

void set_web_root(Config& config, const json& value) {
  config.web_root = text(value);
}

void set_threads(Config& config, const json& value) {
  config.threads = static_cast<unsigned>(integer_in(value, 0, 1024));
}

constexpr std::array<std::pair<std::string_view, spdlog::level::level_enum>, 7> kLogLevels{{
    {"trace", spdlog::level::trace},
    {"debug", spdlog::level::debug},
    {"info", spdlog::level::info},
    {"warn", spdlog::level::warn},
    {"error", spdlog::level::err},
    {"critical", spdlog::level::critical},
    {"off", spdlog::level::off},
}};

void set_log_level(Config& config, const json& value) {
  const std::string name = value.is_string() ? value.get<std::string>() : std::string();
  const auto* found = std::find_if(kLogLevels.begin(), kLogLevels.end(),
                                   [&](const auto& level) { return level.first == name; });
  if (found == kLogLevels.end()) {
    throw ConfigError("expected one of trace, debug, info, warn, error, critical, off");
  }
  config.log_level = found->second;
}

void set_max_message_bytes(Config& config, const json& value) {
  config.max_message_bytes = static_cast<std::size_t>(integer_in(value, 1024, 16 * 1024 * 1024));
}

void set_max_queued_messages(Config& config, const json& value) {
  config.max_queued_messages = static_cast<std::size_t>(integer_in(value, 1, 65536));
}

void set_messages_per_second(Config& config, const json& value) {
  config.messages_per_second = static_cast<unsigned>(integer_in(value, 1, 100000));
}

void set_message_burst(Config& config, const json& value) {
  config.message_burst = static_cast<unsigned>(integer_in(value, 1, 100000));
}

void set_commit_delay_us(Config& config, const json& value) {
  config.commit_delay_us = static_cast<unsigned>(integer_in(value, 0, 100000));
}

void set_bot_delay_ms(Config& config, const json& value) {
  config.bot_delay_ms = static_cast<unsigned>(integer_in(value, 0, 60000));
}

games::BotLevel bot_level_in(const json& value) {
  const auto level = value.is_string() ? games::bot_level_from_name(value.get<std::string>()) : std::nullopt;
  if (!level) throw ConfigError("expected random, easy, medium or strong");
  return *level;
}

void set_bot_level(Config& config, const json& value) { config.bot_level = bot_level_in(value); }

void set_replacement_bot_level(Config& config, const json& value) {
  config.replacement_bot_level = bot_level_in(value);
}

void set_bot_threads(Config& config, const json& value) {
  config.bot_threads = static_cast<unsigned>(integer_in(value, 1, 256));
}

void set_bot_think_ms(Config& config, const json& value) {
  config.bot_think_ms = static_cast<unsigned>(integer_in(value, 10, 600000));
}

void set_bot_iterations(Config& config, const json& value) {
  config.bot_iterations = static_cast<unsigned>(integer_in(value, 0, 100000000));
}

void set_backup_every(Config& config, const json& value) {
  config.backup_every = static_cast<unsigned>(integer_in(value, 0, 365 * 24 * 3600));
}

void set_durability(Config& config, const json& value) {
  const std::string name = value.is_string() ? value.get<std::string>() : std::string();
  if (name != "full" && name != "normal") throw ConfigError("expected full or normal");
  config.durability = name == "full" ? db::Durability::full : db::Durability::normal;
}

void set_integrity_check(Config& config, const json& value) {
  const std::string name = value.is_string() ? value.get<std::string>() : std::string();
  if (name != "quick" && name != "off") throw ConfigError("expected quick or off");
  config.integrity_check = name == "quick";
}

// Empty strings are allowed here: they switch the webhook off.
void set_webhook_url(Config& config, const json& value) {
  if (!value.is_string()) throw ConfigError("expected a string: an http:// or https:// URL, or empty");
  const std::string url = value.get<std::string>();
  if (!url.empty() && !url.starts_with("http://") && !url.starts_with("https://")) {
    throw ConfigError("expected an http:// or https:// URL, or empty");
  }
  config.webhook_url = url;
}

void set_webhook_ca_file(Config& config, const json& value) {
  if (!value.is_string()) throw ConfigError("expected a file name, or empty");
  config.webhook_ca_file = value.get<std::string>();
}

// A list is a JSON array of strings in the file, or text with commas between items.
std::vector<std::string> list_of(const json& value) {
  std::vector<std::string> items;
  if (value.is_array()) {
    for (const json& item : value) {
      if (!item.is_string() || item.get<std::string>().empty()) throw ConfigError("expected strings in the list");
      items.push_back(item.get<std::string>());
    }
    return items;
  }
  if (!value.is_string()) throw ConfigError("expected a list: strings, or text with commas between items");
  const std::string text = value.get<std::string>();
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

std::string show_list(const std::vector<std::string>& items) {
  if (items.empty()) return "\"\"";
  std::string shown;
  for (const std::string& item : items) shown += (shown.empty() ? "" : ",") + item;
  return shown;
}

// An origin as browsers send it: scheme://host[:port], lower case, nothing after.
void set_allowed_origins(Config& config, const json& value) {
  std::vector<std::string> origins = list_of(value);
  for (std::string& origin : origins) {
    std::transform(origin.begin(), origin.end(), origin.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const bool web = origin.starts_with("http://") || origin.starts_with("https://");
    const std::size_t host = origin.find("://") + 3;
    if (origin != "*" && (!web || host >= origin.size() || origin.find('/', host) != std::string::npos)) {
      throw ConfigError("expected origins such as https://example.org or http://localhost:8080, or *");
    }
  }
  config.allowed_origins = std::move(origins);
}

void set_trusted_proxies(Config& config, const json& value) {
  std::vector<std::string> proxies = list_of(value);
  for (std::string& proxy : proxies) {
    boost::system::error_code ec;
    proxy = boost::asio::ip::make_address(proxy, ec).to_string();
    if (ec) throw ConfigError("expected IP addresses such as 127.0.0.1 or ::1");
  }
  config.trusted_proxies = std::move(proxies);
}

void set_new_identities_per_address_per_hour(Config& config, const json& value) {
  config.new_identities_per_address_per_hour = static_cast<unsigned>(integer_in(value, 0, 1000000));
}

void set_tournament_creators(Config& config, const json& value) {
  const std::string role = value.is_string() ? value.get<std::string>() : std::string();
  if (role != "player" && role != "moderator" && role != "admin") {
    throw ConfigError("expected player, moderator or admin");
  }
  config.tournament_creators = role;
}

void set_tournament_entrants(Config& config, const json& value) {
  const std::string who = value.is_string() ? value.get<std::string>() : std::string();
  if (who != "accounts" && who != "everyone") throw ConfigError("expected accounts or everyone");
  config.tournament_entrants = who;
}

void set_reviews_per_day(Config& config, const json& value) {
  config.reviews_per_day = static_cast<unsigned>(integer_in(value, 0, 10000));
}

void set_open_tables_per_player(Config& config, const json& value) {
  config.open_tables_per_player = static_cast<unsigned>(integer_in(value, 0, 1000000));
}

// libsodium's floor for Argon2id is 8 KiB and 1 pass; anything under OWASP's advice is for
// tests, and said so in the documentation.
void set_password_memory_kib(Config& config, const json& value) {
  config.password_memory_kib = static_cast<unsigned>(integer_in(value, 8, 4 * 1024 * 1024));
}

void set_password_passes(Config& config, const json& value) {
  config.password_passes = static_cast<unsigned>(integer_in(value, 1, 100));
}

void set_password_threads(Config& config, const json& value) {
  config.password_threads = static_cast<unsigned>(integer_in(value, 1, 64));
}

void set_session_idle_days(Config& config, const json& value) {
  config.session_idle_days = static_cast<unsigned>(integer_in(value, 1, 3650));
}

void set_sign_in_failures_per_username(Config& config, const json& value) {
  config.sign_in_failures_per_username = static_cast<unsigned>(integer_in(value, 1, 1000000));
}

void set_sign_in_failures_per_address(Config& config, const json& value) {
  config.sign_in_failures_per_address = static_cast<unsigned>(integer_in(value, 1, 1000000));
}

void set_max_connections(Config& config, const json& value) {
  config.max_connections = static_cast<unsigned>(integer_in(value, 0, 10000000));
}

// The address players reach the server at: scheme and host, perhaps a port and a path; kept
// without a trailing slash, so that links are public_url + "/#/...".
void set_public_url(Config& config, const json& value) {
  if (!value.is_string()) throw ConfigError("expected a string: https://HOST[:PORT][/PATH], or empty");
  std::string url = value.get<std::string>();
  if (!url.empty() && !url.starts_with("http://") && !url.starts_with("https://")) {
    throw ConfigError("expected https://HOST[:PORT][/PATH] (or http://), or empty");
  }
  if (std::any_of(url.begin(), url.end(), [](unsigned char c) { return c <= ' ' || c >= 0x7f || c == '#' || c == '?'; })) {
    throw ConfigError("expected a URL without spaces, query or fragment");
  }
  while (!url.empty() && url.back() == '/') url.pop_back();
  config.public_url = std::move(url);
}

void set_smtp_security(Config& config, const json& value) {
  const std::string name = value.is_string() ? value.get<std::string>() : std::string();
  if (name != "starttls" && name != "tls" && name != "none") throw ConfigError("expected starttls, tls or none");
  config.smtp_security = name;
}

void set_push_endpoints(Config& config, const json& value) {
  const std::string name = value.is_string() ? value.get<std::string>() : std::string();
  if (name != "https" && name != "http") throw ConfigError("expected https or http");
  config.push_over_http = name == "http";
}

// A string that may be empty, for the settings whose empty value means "none".
std::string optional_text(const json& value) {
  if (!value.is_string()) throw ConfigError("expected a string, or empty");
  return value.get<std::string>();
}

std::string shown(const std::string& text) { return text.empty() ? std::string("\"\"") : text; }

std::string show_log_level(const Config& config) {
  const auto* found = std::find_if(kLogLevels.begin(), kLogLevels.end(), [&](const auto& level) {
    return level.second == config.log_level;
  });
  return std::string(found->first);
}

constexpr std::array<Setting, 58> kSettings{{
    {"bind_address", "--bind", Kind::text, "IP address to listen on", set_bind_address,
     [](const Config& c) { return c.bind_address; }},
    {"port", "--port", Kind::integer, "TCP port; 0 picks a free one", set_port,
     [](const Config& c) { return std::to_string(c.port); }},
    {"data_dir", "--data-dir", Kind::text, "directory for the database, created if missing",
     set_data_dir, [](const Config& c) { return c.data_dir.string(); }},
    {"database_file", "--database-file", Kind::text, "SQLite file name inside data_dir",
     set_database_file, [](const Config& c) { return c.database_file; }},
    {"database", "--database", Kind::text,
     "PostgreSQL URL (postgresql://user@host:port/name) instead of the SQLite file; docs/scaling.md",
     set_database, [](const Config& c) { return without_password(c.database); }},
    {"cluster_address", "--cluster-address", Kind::text,
     "host:port the other processes on a PostgreSQL database reach this one at; default: where it listens",
     [](Config& c, const json& value) { c.cluster_address = text(value); },
     [](const Config& c) { return c.cluster_address; }},
    {"web_root", "--web-root", Kind::text, "static files to serve; none if missing", set_web_root,
     [](const Config& c) { return c.web_root.string(); }},
    {"tls_certificate", "--tls-certificate", Kind::text,
     "PEM certificate chain (fullchain.pem) to serve HTTPS and WSS with; empty: plain HTTP",
     [](Config& c, const json& value) { c.tls_certificate = optional_text(value); },
     [](const Config& c) { return shown(c.tls_certificate.string()); }},
    {"tls_private_key", "--tls-private-key", Kind::text, "its PEM private key (privkey.pem)",
     [](Config& c, const json& value) { c.tls_private_key = optional_text(value); },
     [](const Config& c) { return shown(c.tls_private_key.string()); }},
    {"http_port", "--http-port", Kind::integer, "with TLS: a plain HTTP port that redirects to HTTPS; 0: none",
     [](Config& c, const json& value) { c.http_port = static_cast<std::uint16_t>(integer_in(value, 0, 65535)); },
     [](const Config& c) { return std::to_string(c.http_port); }},
    {"acme_challenge_dir", "--acme-challenge-dir", Kind::text,
     "certbot's webroot: served at /.well-known/acme-challenge/ over plain HTTP; empty: none",
     [](Config& c, const json& value) { c.acme_challenge_dir = optional_text(value); },
     [](const Config& c) { return shown(c.acme_challenge_dir.string()); }},
    {"threads", "--threads", Kind::integer, "I/O threads; 0 = one per core less one, at least one", set_threads,
     [](const Config& c) { return std::to_string(c.threads); }},
    {"log_level", "--log-level", Kind::text, "trace|debug|info|warn|error|critical|off",
     set_log_level, show_log_level},
    {"max_message_bytes", "--max-message-bytes", Kind::integer,
     "largest WebSocket message accepted, 1024..16777216", set_max_message_bytes,
     [](const Config& c) { return std::to_string(c.max_message_bytes); }},
    {"max_queued_messages", "--max-queued-messages", Kind::integer,
     "outgoing messages queued per connection before it is dropped", set_max_queued_messages,
     [](const Config& c) { return std::to_string(c.max_queued_messages); }},
    {"messages_per_second", "--messages-per-second", Kind::integer,
     "sustained WebSocket messages per connection", set_messages_per_second,
     [](const Config& c) { return std::to_string(c.messages_per_second); }},
    {"message_burst", "--message-burst", Kind::integer,
     "WebSocket messages per connection allowed at once", set_message_burst,
     [](const Config& c) { return std::to_string(c.message_burst); }},
    {"bot_delay_ms", "--bot-delay-ms", Kind::integer,
     "pause before a server bot plays, so people can follow, 0..60000", set_bot_delay_ms,
     [](const Config& c) { return std::to_string(c.bot_delay_ms); }},
    {"bot_level", "--bot-level", Kind::text,
     "how a bot a host adds without naming a level plays (and play-now bots): random|easy|medium|strong",
     set_bot_level, [](const Config& c) { return std::string(games::name(c.bot_level)); }},
    {"replacement_bot_level", "--replacement-bot-level", Kind::text,
     "how the bot plays that answers for a late seat and takes resigned and replaced seats: random|easy|medium|strong",
     set_replacement_bot_level, [](const Config& c) { return std::string(games::name(c.replacement_bot_level)); }},
    {"bot_threads", "--bot-threads", Kind::integer, "threads on which bots search, 1-256", set_bot_threads,
     [](const Config& c) { return std::to_string(c.bot_threads); }},
    {"bot_think_ms", "--bot-think-ms", Kind::integer,
     "the most one bot decision may take, in ms, 10-600000", set_bot_think_ms,
     [](const Config& c) { return std::to_string(c.bot_think_ms); }},
    {"bot_iterations", "--bot-iterations", Kind::integer,
     "playouts per bot decision, 0: each level's own (50, 400, 3000)", set_bot_iterations,
     [](const Config& c) { return std::to_string(c.bot_iterations); }},
    {"durability", "--durability", Kind::text,
     "full: each commit reaches the disk; normal: survives a crash of the server, not of the machine",
     set_durability,
     [](const Config& c) { return std::string(c.durability == db::Durability::full ? "full" : "normal"); }},
    {"commit_delay_us", "--commit-delay-us", Kind::integer,
     "under load, how long a write may wait for others to share its commit's sync to the disk, 0-100000 us; 0: off",
     set_commit_delay_us, [](const Config& c) { return std::to_string(c.commit_delay_us); }},
    {"integrity_check", "--integrity-check", Kind::text,
     "quick: check every page of the database at start (about 1 s per 100 MB); off: skip",
     set_integrity_check, [](const Config& c) { return std::string(c.integrity_check ? "quick" : "off"); }},
    {"backup_every", "--backup-every", Kind::integer,
     "seconds between backups of the SQLite database, each verified, 0-31536000; 0: none", set_backup_every,
     [](const Config& c) { return std::to_string(c.backup_every); }},
    {"backup_keep", "--backup-keep", Kind::integer, "verified backups kept, 1-100000; older ones are removed",
     [](Config& c, const json& value) { c.backup_keep = static_cast<unsigned>(integer_in(value, 1, 100000)); },
     [](const Config& c) { return std::to_string(c.backup_keep); }},
    {"backup_dir", "--backup-dir", Kind::text, "the folder of backups; empty: backups beside the database file",
     [](Config& c, const json& value) { c.backup_dir = optional_text(value); },
     [](const Config& c) { return shown(c.backup_dir.string()); }},
    {"webhook_url", "--webhook-url", Kind::text, "POSTed to when it becomes a player's turn; empty: off",
     set_webhook_url, [](const Config& c) { return c.webhook_url.empty() ? std::string("\"\"") : c.webhook_url; }},
    {"webhook_ca_file", "--webhook-ca-file", Kind::text,
     "for an https webhook: CA certificates trusted besides the system's", set_webhook_ca_file,
     [](const Config& c) { return c.webhook_ca_file.empty() ? std::string("\"\"") : c.webhook_ca_file; }},
    {"public_url", "--public-url", Kind::text,
     "the address players reach the server at, for links in mails and notifications (https://play.example.org)",
     set_public_url, [](const Config& c) { return shown(c.public_url); }},
    {"smtp_host", "--smtp-host", Kind::text, "the mail relay that sends notices and password links; empty: no mail",
     [](Config& c, const json& value) { c.smtp_host = optional_text(value); },
     [](const Config& c) { return shown(c.smtp_host); }},
    {"smtp_port", "--smtp-port", Kind::integer, "the mail relay's port (587 for starttls, 465 for tls)",
     [](Config& c, const json& value) { c.smtp_port = static_cast<unsigned>(integer_in(value, 1, 65535)); },
     [](const Config& c) { return std::to_string(c.smtp_port); }},
    {"smtp_security", "--smtp-security", Kind::text,
     "starttls|tls|none: how mail to the relay is encrypted (none only for a relay on this machine)",
     set_smtp_security, [](const Config& c) { return c.smtp_security; }},
    {"smtp_user", "--smtp-user", Kind::text, "the user to sign in to the relay as; empty: no sign-in",
     [](Config& c, const json& value) { c.smtp_user = optional_text(value); },
     [](const Config& c) { return shown(c.smtp_user); }},
    {"smtp_password", "--smtp-password", Kind::text, "the relay's password (never shown)",
     [](Config& c, const json& value) { c.smtp_password = optional_text(value); },
     [](const Config& c) { return std::string(c.smtp_password.empty() ? "\"\"" : "(set)"); }},
    {"smtp_from", "--smtp-from", Kind::text, "the sender of mails: \"Name <address>\" or an address",
     [](Config& c, const json& value) { c.smtp_from = optional_text(value); },
     [](const Config& c) { return shown(c.smtp_from); }},
    {"smtp_ca_file", "--smtp-ca-file", Kind::text,
     "for a relay whose certificate a private CA signed: that CA's certificates (PEM); empty: the system's",
     [](Config& c, const json& value) { c.smtp_ca_file = optional_text(value); },
     [](const Config& c) { return shown(c.smtp_ca_file); }},
    {"notice_turn_after_seconds", "--notice-turn-after-seconds", Kind::integer,
     "how long a player has been away before a turn is worth a notice, 0-604800",
     [](Config& c, const json& value) { c.notice_turn_after_seconds = static_cast<unsigned>(integer_in(value, 0, 604800)); },
     [](const Config& c) { return std::to_string(c.notice_turn_after_seconds); }},
    {"notice_retry_seconds", "--notice-retry-seconds", Kind::integer,
     "the first wait after a failed delivery, 1-3600; later ones are 5, 30, 120 and 360 times it",
     [](Config& c, const json& value) { c.notice_retry_seconds = static_cast<unsigned>(integer_in(value, 1, 3600)); },
     [](const Config& c) { return std::to_string(c.notice_retry_seconds); }},
    {"digest_hour", "--digest-hour", Kind::integer, "the hour (UTC, 0-23) the daily digest mails go out",
     [](Config& c, const json& value) { c.digest_hour = static_cast<unsigned>(integer_in(value, 0, 23)); },
     [](const Config& c) { return std::to_string(c.digest_hour); }},
    {"tournament_reminder_minutes", "--tournament-reminder-minutes", Kind::integer,
     "how long before a tournament starts its entrants are reminded (or when its check-in opens, if earlier), 0-10080",
     [](Config& c, const json& value) { c.tournament_reminder_minutes = static_cast<unsigned>(integer_in(value, 0, 10080)); },
     [](const Config& c) { return std::to_string(c.tournament_reminder_minutes); }},
    {"push_endpoints", "--push-endpoints", Kind::text,
     "https: Web Push only to https push services; http: also plain http (tests on loopback only)", set_push_endpoints,
     [](const Config& c) { return std::string(c.push_over_http ? "http" : "https"); }},
    {"allowed_origins", "--allowed-origins", Kind::text,
     "web origins whose pages may connect besides this server's own host, comma-separated; * for any",
     set_allowed_origins, [](const Config& c) { return show_list(c.allowed_origins); }},
    {"trusted_proxies", "--trusted-proxies", Kind::text,
     "reverse proxies' addresses whose X-Forwarded-For names the client, comma-separated",
     set_trusted_proxies, [](const Config& c) { return show_list(c.trusted_proxies); }},
    {"new_identities_per_address_per_hour", "--new-identities-per-address-per-hour", Kind::integer,
     "new guest identities one client address may make in an hour; 0: no cap",
     set_new_identities_per_address_per_hour,
     [](const Config& c) { return std::to_string(c.new_identities_per_address_per_hour); }},
    {"reviews_per_day", "--reviews-per-day", Kind::integer,
     "second opinions of the strong bot one player may ask for in 24 hours, 0-10000; 0: none", set_reviews_per_day,
     [](const Config& c) { return std::to_string(c.reviews_per_day); }},
    {"open_tables_per_player", "--open-tables-per-player", Kind::integer,
     "unfinished tables one player may host at once; 0: no cap", set_open_tables_per_player,
     [](const Config& c) { return std::to_string(c.open_tables_per_player); }},
    {"tournament_creators", "--tournament-creators", Kind::text,
     "the least role whose accounts may create tournaments: player|moderator|admin", set_tournament_creators,
     [](const Config& c) { return c.tournament_creators; }},
    {"tournament_entrants", "--tournament-entrants", Kind::text,
     "who may register for tournaments: accounts|everyone (guests too)", set_tournament_entrants,
     [](const Config& c) { return c.tournament_entrants; }},
    {"max_connections", "--max-connections", Kind::integer,
     "connections served at once; 0: the descriptor limit less a reserve", set_max_connections,
     [](const Config& c) { return std::to_string(c.max_connections); }},
    {"password_memory_kib", "--password-memory-kib", Kind::integer,
     "memory of one password hash (Argon2id), 8-4194304 KiB", set_password_memory_kib,
     [](const Config& c) { return std::to_string(c.password_memory_kib); }},
    {"password_passes", "--password-passes", Kind::integer, "passes of one password hash, 1-100",
     set_password_passes, [](const Config& c) { return std::to_string(c.password_passes); }},
    {"password_threads", "--password-threads", Kind::integer, "threads that hash passwords, 1-64",
     set_password_threads, [](const Config& c) { return std::to_string(c.password_threads); }},
    {"session_idle_days", "--session-idle-days", Kind::integer,
     "days a signed-in device may stay away before it must sign in again, 1-3650", set_session_idle_days,
     [](const Config& c) { return std::to_string(c.session_idle_days); }},
    {"sign_in_failures_per_username", "--sign-in-failures-per-username", Kind::integer,
     "failed sign-ins to one username in 10 minutes before it waits", set_sign_in_failures_per_username,
     [](const Config& c) { return std::to_string(c.sign_in_failures_per_username); }},
    {"sign_in_failures_per_address", "--sign-in-failures-per-address", Kind::integer,
     "failed sign-ins, and usernames found taken at sign-up, from one client address in 10 minutes before it waits", set_sign_in_failures_per_address,
     [](const Config& c) { return std::to_string(c.sign_in_failures_per_address); }},
}};

const Setting* find_setting_by_key(std::string_view key) {
  const auto* found = std::find_if(kSettings.begin(), kSettings.end(),
                                   [&](const Setting& setting) { return setting.key == key; });
  return found == kSettings.end() ? nullptr : found;
}

}  // namespace

namespace detail {

std::span<const Setting> settings() { return kSettings; }

const Setting* find_setting_by_flag(std::string_view flag) {
  const auto* found = std::find_if(kSettings.begin(), kSettings.end(),
                                   [&](const Setting& setting) { return setting.flag == flag; });
  return found == kSettings.end() ? nullptr : found;
}

void apply_config_file(Config& config, const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw ConfigError("cannot read config file " + file.string());

  json document;
  try {
    document = json::parse(in);
  } catch (const json::parse_error& error) {
    throw ConfigError(file.string() + ": invalid JSON: " + error.what());
  }
  if (!document.is_object()) throw ConfigError(file.string() + ": expected a JSON object");

  for (const auto& [key, value] : document.items()) {
    const Setting* setting = find_setting_by_key(key);
    // Rejecting unknown keys turns a typo into an error instead of a silent default.
    if (setting == nullptr) throw ConfigError(file.string() + ": unknown key '" + key + "'");
    try {
      setting->set(config, value);
    } catch (const ConfigError& error) {
      throw ConfigError(file.string() + ": " + key + ": " + error.what() + ", got " + value.dump());
    }
  }
}

}  // namespace detail

unsigned io_threads_for(unsigned cores) { return cores > 1 ? cores - 1 : 1; }

unsigned Config::io_threads() const {
  if (threads != 0) return threads;
  return io_threads_for(std::thread::hardware_concurrency());
}

}  // namespace elgrande::server
