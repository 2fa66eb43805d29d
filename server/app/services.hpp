#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "accounts/account_requests.hpp"
#include "history/history_requests.hpp"
#include "history/reviews.hpp"
#include "matchmaking/play_requests.hpp"
#include "moderation/moderation_requests.hpp"
#include "notices/notice_requests.hpp"
#include "ratings/rating_requests.hpp"
#include "requests/answers.hpp"
#include "tables/lobby_requests.hpp"
#include "tournaments/tournament_requests.hpp"

namespace elgrande::server {

class Accounts;
class Bus;
class Identities;
class NewIdentityQuota;
class Presence;
class Sanctions;
class TableDirectory;
class WebFiles;
class Reader;
class SessionRegistry;
class ConnectionLimit;
class PeerRelay;
class Tournaments;
class TlsCertificate;

// Per-connection WebSocket limits, from the configuration.
struct WsLimits {
  std::size_t max_message_bytes = 64 * 1024;
  std::size_t max_queued_messages = 256;
  double messages_per_second = 20;
  double message_burst = 40;
};

// What the transport and the dispatcher work with, made once at startup by main and shared
// immutably between threads: the transport's settings, what hello and farewell join a
// connection to, and each capability's requests' own environment, which the dispatcher
// hands to them (a capability sees only what it declared). Each service locks (or
// strands) itself.
struct Services : RequestEnv {
  const games::GameModule* game = nullptr;  // what every table plays; it reads game.command fast
  // The web client's files, from its absolute directory; none when the configured one does
  // not exist.
  std::shared_ptr<WebFiles> web_files;
  WsLimits ws_limits;
  // Who may connect: browsers' origins besides the server's own host, and the reverse
  // proxies believed about the client's address (see Config).
  std::vector<std::string> allowed_origins;
  std::vector<std::string> trusted_proxies;
  // The certificate connections are served with; none: plain HTTP and WebSocket.
  std::shared_ptr<TlsCertificate> tls;
  // A plain HTTP port's answers (docs/deploy.md): a redirect to this origin, and the files
  // certbot puts in this folder for Let's Encrypt's HTTP challenge.
  std::string https_origin;  // from public_url; empty: the Host asked for, on https_port
  std::uint16_t https_port = 443;
  std::filesystem::path acme_challenge_dir;
  // What another process of a cluster presents to relay its clients here (net/peer_link.hpp);
  // empty: none may.
  std::string peer_key;
  // A process that does not lead: where its clients' messages and requests go, rather than
  // to the capabilities below, which it does not have (net/peer_relay.hpp).
  std::shared_ptr<PeerRelay> relay;
  std::shared_ptr<SessionRegistry> sessions;  // open WebSocket sessions, for shutdown
  std::shared_ptr<ConnectionLimit> connections;  // every client connection, against the limit
  // Tables whose command log the start found damaged (storage/start_checks.hpp), for /readyz.
  std::vector<std::int64_t> damaged_logs;

  // hello and farewell (app/hello.hpp, app/dispatcher.hpp), /metrics and the public API.
  Identities* identities = nullptr;
  NewIdentityQuota* new_identity_quota = nullptr;
  Accounts* accounts = nullptr;
  Sanctions* sanctions = nullptr;
  Presence* presence = nullptr;
  TableDirectory* tables = nullptr;
  Tournaments* tournaments = nullptr;
  const Bus* bus = nullptr;  // where hello says a player renamed

  AccountRequestsEnv account_requests;
  ModerationRequestsEnv moderation_requests;
  LobbyRequestsEnv lobby_requests;
  PlayRequestsEnv play_requests;
  RatingRequestsEnv rating_requests;
  HistoryRequestsEnv history_requests;
  ReviewRequestsEnv review_requests;
  TournamentRequestsEnv tournament_requests;
  NoticeRequestsEnv notice_requests;  // its sender is none when notices are off (a follower)
};

}  // namespace elgrande::server
