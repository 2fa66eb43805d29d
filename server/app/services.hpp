#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accounts/credentials.hpp"
#include "app/client.hpp"
#include "elgrande/protocol/envelope.hpp"
#include "ops/metrics.hpp"

namespace elgrande::server {

class Accounts;
class BlockLists;
class Identities;
class PasswordWorkers;
class Sanctions;
class SignInThrottle;
class NewIdentityQuota;
class Matchmaker;
class Presence;
class Ratings;
class TableDirectory;
class WebFiles;
class TableFactory;
class Storage;
class Reader;
class SessionRegistry;
class ConnectionLimit;
class Tournaments;
enum class Role : std::uint8_t;

// Per-connection WebSocket limits, from the configuration.
struct WsLimits {
  std::size_t max_message_bytes = 64 * 1024;
  std::size_t max_queued_messages = 256;
  double messages_per_second = 20;
  double message_burst = 40;
};

// What connections and request handlers work with, made once at startup by main and
// shared immutably between threads. Each service locks (or strands) itself; none is
// reached through another.
struct Services {
  // The web client's files, from its absolute directory; none when the configured one does
  // not exist.
  std::shared_ptr<WebFiles> web_files;
  WsLimits ws_limits;
  // Who may connect: browsers' origins besides the server's own host, and the reverse
  // proxies believed about the client's address (see Config).
  std::vector<std::string> allowed_origins;
  std::vector<std::string> trusted_proxies;
  std::size_t open_tables_per_player = 0;  // 0: no cap
  std::shared_ptr<SessionRegistry> sessions;  // open WebSocket sessions, for shutdown
  std::shared_ptr<ConnectionLimit> connections;  // every client connection, against the limit
  std::shared_ptr<Metrics> metrics;
  Storage* storage = nullptr;  // the writer: asked whether changes are taken
  Reader* reader = nullptr;    // history and record export
  // Tables whose command log the start found damaged (storage/start_checks.hpp), for /readyz.
  std::vector<std::int64_t> damaged_logs;
  Identities* identities = nullptr;
  NewIdentityQuota* new_identity_quota = nullptr;
  Accounts* accounts = nullptr;
  PasswordWorkers* password_workers = nullptr;
  SignInThrottle* sign_in_throttle = nullptr;
  Sanctions* sanctions = nullptr;
  BlockLists* block_lists = nullptr;
  PasswordCost password_cost;
  // A hash of no one's password, checked when a username is unknown so that the answer
  // takes as long as for a wrong password.
  std::string decoy_password_hash;
  Presence* presence = nullptr;
  Ratings* ratings = nullptr;
  Matchmaker* matchmaker = nullptr;
  TableDirectory* tables = nullptr;
  TableFactory* table_factory = nullptr;
  Tournaments* tournaments = nullptr;
  Role tournament_creators{};  // the least role that may create tournaments (player: any account)
  bool guests_enter_tournaments = false;  // guests may register too (tournament_entrants "everyone")
};

// Whether changes are refused now because storage cannot take them (a failing disk, a full
// queue); if so, `client` is answered `unavailable`. Asked before anything is changed.
bool refuse_while_storage_refuses(const Services& services, Client& client,
                                  const std::optional<protocol::RequestId>& id);

// Answers `client` with an error and counts it.
inline void refuse(const Services& services, Client& client, protocol::ErrorCode code, std::string_view message,
                   const std::optional<protocol::RequestId>& id = std::nullopt) {
  services.metrics->count_error(code);
  client.send(protocol::error_message(code, message, id));
}

}  // namespace elgrande::server
