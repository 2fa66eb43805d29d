#pragma once

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

#include "elgrande/protocol/codec.hpp"
#include "metrics.hpp"
#include "net.hpp"

namespace elgrande::server {

class Table;
class WsSession;

using PlayerId = std::int64_t;
using TableId = std::int64_t;

struct Player {
  PlayerId id = 0;
  std::string name;
};
protocol::Json to_json(const Player& player);

enum class TableStatus : std::uint8_t { open, playing, finished };
std::string_view name(TableStatus status);

// What tables need from the server around them, fixed at startup.
struct TableSettings {
  std::chrono::milliseconds bot_delay{600};
  // A finished table stays for spectators and late readers this long, then goes.
  std::chrono::minutes finished_lifetime{60};
};

// Everything shared between connections and tables: identities, which connections each
// identity has open, the tables, and the lobby listing with its subscribers. One mutex
// guards it all; nothing blocks or calls out while holding it (messages are handed to
// the sessions' strands after the lock is released), so it is never held for long.
// Game state is not here: each Table owns its own, on its strand.
class Lobby {
 public:
  Lobby(net::any_io_executor executor, TableSettings settings, std::shared_ptr<Metrics> metrics);
  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  // --- Identities. ---
  struct Identity {
    Player player;
    std::string token;  // the secret a client keeps to come back as this player
  };
  // A new guest, named `name` or "Guest <id>".
  Identity create_player(std::optional<std::string> name);
  std::optional<Player> find_player(std::string_view token) const;
  std::optional<Player> player(PlayerId id) const;
  void rename(PlayerId id, std::string name);

  // --- Connections of an identity. attach/detach return the player's tables, which the
  // caller tells about the change. ---
  std::vector<std::shared_ptr<Table>> attach(PlayerId id, const std::shared_ptr<WsSession>& session);
  std::vector<std::shared_ptr<Table>> detach(PlayerId id, const WsSession* session);
  std::vector<std::shared_ptr<WsSession>> sessions_of(PlayerId id) const;
  bool connected(PlayerId id) const;

  // --- Tables. ---
  std::shared_ptr<Table> create_table(std::string name, Player host, const Options& options,
                                      int turn_seconds);
  std::shared_ptr<Table> find_table(TableId id) const;
  // Seated players' membership, kept by the tables: it decides whom a reconnecting
  // player's connection is announced to.
  void seated(PlayerId player, TableId table);
  void unseated(PlayerId player, TableId table);
  // A table's public description changed: stored for lobby.list and pushed to
  // subscribers.
  void publish(TableId id, TableStatus status, protocol::Json table);
  void remove_table(TableId id);

  // --- The lobby listing. ---
  protocol::Json list() const;  // open and playing tables
  protocol::Json subscribe(const std::shared_ptr<WsSession>& session);  // also the list
  void unsubscribe(const WsSession* session);

  // Drops every table, so pending timers release them (at shutdown).
  void close();

  Gauges gauges(std::size_t connections) const;
  Metrics& metrics() const { return *metrics_; }
  const TableSettings& settings() const { return settings_; }

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
  };

  void push_to_subscribers(const std::string& message);
  std::vector<std::shared_ptr<Table>> tables_of_locked(const PlayerEntry& entry) const;

  net::any_io_executor executor_;
  TableSettings settings_;
  std::shared_ptr<Metrics> metrics_;

  mutable std::mutex mutex_;
  PlayerId next_player_ = 1;
  TableId next_table_ = 1;
  std::unordered_map<std::string, PlayerId> tokens_;
  std::unordered_map<PlayerId, PlayerEntry> players_;
  std::map<TableId, Listing> tables_;  // ordered: the listing shows tables oldest first
  std::unordered_map<const WsSession*, std::weak_ptr<WsSession>> subscribers_;
};

}  // namespace elgrande::server
