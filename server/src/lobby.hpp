#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "elgrande/db/store.hpp"
#include "elgrande/protocol/codec.hpp"
#include "metrics.hpp"
#include "net.hpp"
#include "storage.hpp"

namespace elgrande::server {

class Table;
class WsSession;
class Webhook;

using PlayerId = std::int64_t;
using TableId = std::int64_t;

struct Player {
  PlayerId id = 0;
  std::string name;
};
protocol::Json to_json(const Player& player);
// A seat as a Table and a history entry show it (docs/protocol.md, Seat), without
// `connected`, which only a live table knows.
protocol::Json seat_json(std::size_t seat, std::string_view kind, const std::optional<Player>& player,
                         bool resigned, bool replaced, int timeouts);

enum class TableStatus : std::uint8_t { open, playing, finished };
std::string_view name(TableStatus status);
std::optional<TableStatus> table_status_from(std::string_view name);

// What happens when a seat's time runs out.
enum class OnTimeout : std::uint8_t {
  bot_answers,   // the server's bot answers this decision; the seat stays the player's
  replace_seat,  // the same, and after `replace_after` timeouts in a row a bot takes the seat
};
std::string_view name(OnTimeout policy);
std::optional<OnTimeout> on_timeout_from(std::string_view name);

// What the creator chose for a table.
struct TableConfig {
  std::string name;
  Options options;
  int turn_seconds = 0;  // 0: no limit
  OnTimeout on_timeout = OnTimeout::bot_answers;
  int replace_after = 0;  // with replace_seat: timeouts in a row that cost the seat
};

// What tables need from the server around them, fixed at startup.
struct TableSettings {
  std::chrono::milliseconds bot_delay{600};
  // A finished table stays for spectators and late readers this long, then goes.
  std::chrono::minutes finished_lifetime{60};
  // A deadline that passed while the server was down is moved to this long after the
  // restart (or the table's whole turn time, if shorter), so that nobody loses a turn to
  // an outage without a chance to come back.
  std::chrono::seconds restart_grace{60};
};

// The SHA-256 of a token: what the database keeps instead of the token itself.
db::TokenHash hash_token(std::string_view token);

// Everything shared between connections and tables: identities, which connections each
// identity has open, the tables, and the lobby listing with its subscribers. One mutex
// guards it all; nothing blocks or calls out while holding it (messages are handed to
// the sessions' strands after the lock is released), so it is never held for long.
// Game state is not here: each Table owns its own, on its strand.
class Lobby {
 public:
  Lobby(net::any_io_executor executor, TableSettings settings, std::shared_ptr<Metrics> metrics,
        Storage& storage, std::shared_ptr<Webhook> webhook);
  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  // --- Start: what the database holds, before any connection is served. ---
  void restore_players(const std::vector<db::PlayerRecord>& players);
  // Lists the restored tables and restarts their games' bots and clocks.
  void restore_tables(std::vector<db::RestoredTable> tables, TableId highest_id);

  // --- Identities. ---
  struct Identity {
    Player player;
    std::string token;  // the secret a client keeps to come back as this player
  };
  // A new guest, named `name` or "Guest <id>". `saved` runs once it is in the database
  // (on the database thread): only then may the token be handed out.
  using IdentitySaved = std::function<void(const Identity&, bool saved)>;
  void create_player(std::optional<std::string> name, IdentitySaved saved);
  std::optional<Player> find_player(std::string_view token) const;
  std::optional<Player> player(PlayerId id) const;
  void rename(PlayerId id, std::string name, Storage::Done saved);

  // --- Connections of an identity. attach/detach return the player's tables, which the
  // caller tells about the change. ---
  std::vector<std::shared_ptr<Table>> attach(PlayerId id, const std::shared_ptr<WsSession>& session);
  std::vector<std::shared_ptr<Table>> detach(PlayerId id, const WsSession* session);
  std::vector<std::shared_ptr<WsSession>> sessions_of(PlayerId id) const;
  bool connected(PlayerId id) const;

  // --- Tables. ---
  std::shared_ptr<Table> create_table(Player host, TableConfig config);
  std::shared_ptr<Table> find_table(TableId id) const;
  // Seated players' membership, kept by the tables: it decides whom a reconnecting
  // player's connection is announced to, and which games are a player's.
  void seated(PlayerId player, TableId table);
  void unseated(PlayerId player, TableId table);
  // A table's public description changed: stored for lobby.list and pushed to
  // subscribers.
  void publish(TableId id, TableStatus status, protocol::Json table);
  // Whose turn it is at a table (a bit per seat) and the seats' deadlines (Unix ms, 0 for
  // none), for player.games. Not pushed to anyone.
  void publish_turns(TableId id, std::uint8_t waiting, const std::array<std::int64_t, kMaxPlayers>& deadlines);
  void remove_table(TableId id);

  // --- Listings. ---
  protocol::Json list() const;  // open and playing tables
  protocol::Json subscribe(const std::shared_ptr<WsSession>& session);  // also the list
  void unsubscribe(const WsSession* session);
  // The tables a player sits or sat at (a seat resigned or lost to timeouts stays
  // listed), those waiting for the player first (player.games).
  protocol::Json games_of(PlayerId player) const;

  // Drops every table, so pending timers release them (at shutdown).
  void close();

  Gauges gauges(std::size_t connections) const;
  Metrics& metrics() const { return *metrics_; }
  const TableSettings& settings() const { return settings_; }
  Storage& storage() const { return storage_; }
  Webhook* webhook() const { return webhook_.get(); }

 private:
  struct PlayerEntry {
    Player player;
    std::vector<std::weak_ptr<WsSession>> sessions;
    std::set<TableId> tables;
  };
  struct Listing {
    std::shared_ptr<Table> table;
    TableStatus status = TableStatus::open;
    protocol::Json description;  // null until the table publishes
    std::uint8_t waiting = 0;
    std::array<std::int64_t, kMaxPlayers> deadlines{};
  };

  void push_to_subscribers(const std::string& message);
  std::vector<std::shared_ptr<Table>> tables_of_locked(const PlayerEntry& entry) const;

  net::any_io_executor executor_;
  TableSettings settings_;
  std::shared_ptr<Metrics> metrics_;
  Storage& storage_;
  std::shared_ptr<Webhook> webhook_;  // null when no webhook is configured

  mutable std::mutex mutex_;
  PlayerId next_player_ = 1;
  TableId next_table_ = 1;
  std::unordered_map<std::string, PlayerId> tokens_;  // by the bytes of the token's hash
  std::unordered_map<PlayerId, PlayerEntry> players_;
  std::map<TableId, Listing> tables_;  // ordered: the listing shows tables oldest first
  std::unordered_map<const WsSession*, std::weak_ptr<WsSession>> subscribers_;
};

}  // namespace elgrande::server
