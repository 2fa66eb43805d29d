#include "lobby.hpp"

#include <algorithm>
#include <random>

#include "table.hpp"
#include "ws_session.hpp"

namespace elgrande::server {
namespace {

namespace protocol = elgrande::protocol;

// 256 bits from the kernel's generator, as 64 hex digits: unguessable, and printable
// for clients to keep in local storage.
std::string new_token() {
  static thread_local std::random_device entropy("/dev/urandom");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  token.reserve(64);
  for (int i = 0; i < 8; ++i) {
    std::uint32_t word = entropy();
    for (int nibble = 0; nibble < 8; ++nibble, word >>= 4) token += kHex[word & 0xF];
  }
  return token;
}

}  // namespace

protocol::Json to_json(const Player& player) { return {{"id", player.id}, {"name", player.name}}; }

std::string_view name(TableStatus status) {
  switch (status) {
    case TableStatus::open:
      return "open";
    case TableStatus::playing:
      return "playing";
    case TableStatus::finished:
      return "finished";
  }
  return "open";
}

Lobby::Lobby(net::any_io_executor executor, TableSettings settings, std::shared_ptr<Metrics> metrics)
    : executor_(std::move(executor)), settings_(settings), metrics_(std::move(metrics)) {}

Lobby::Identity Lobby::create_player(std::optional<std::string> name) {
  std::string token = new_token();
  const std::lock_guard lock(mutex_);
  const PlayerId id = next_player_++;
  Player player{id, name ? std::move(*name) : "Guest " + std::to_string(id)};
  players_[id].player = player;
  tokens_[token] = id;
  return {std::move(player), std::move(token)};
}

std::optional<Player> Lobby::find_player(std::string_view token) const {
  const std::lock_guard lock(mutex_);
  const auto found = tokens_.find(std::string(token));
  if (found == tokens_.end()) return std::nullopt;
  return players_.at(found->second).player;
}

std::optional<Player> Lobby::player(PlayerId id) const {
  const std::lock_guard lock(mutex_);
  const auto found = players_.find(id);
  if (found == players_.end()) return std::nullopt;
  return found->second.player;
}

void Lobby::rename(PlayerId id, std::string name) {
  const std::lock_guard lock(mutex_);
  if (const auto found = players_.find(id); found != players_.end()) {
    found->second.player.name = std::move(name);
  }
}

std::vector<std::shared_ptr<Table>> Lobby::tables_of_locked(const PlayerEntry& entry) const {
  std::vector<std::shared_ptr<Table>> tables;
  for (const TableId id : entry.tables) {
    if (const auto found = tables_.find(id); found != tables_.end()) {
      tables.push_back(found->second.table);
    }
  }
  return tables;
}

std::vector<std::shared_ptr<Table>> Lobby::attach(PlayerId id,
                                                  const std::shared_ptr<WsSession>& session) {
  const std::lock_guard lock(mutex_);
  PlayerEntry& entry = players_.at(id);
  entry.sessions.push_back(session);
  return tables_of_locked(entry);
}

std::vector<std::shared_ptr<Table>> Lobby::detach(PlayerId id, const WsSession* session) {
  const std::lock_guard lock(mutex_);
  const auto found = players_.find(id);
  if (found == players_.end()) return {};
  PlayerEntry& entry = found->second;
  // The session is being destroyed, so its weak pointer has already expired: compare
  // owners by address instead.
  std::erase_if(entry.sessions, [&](const std::weak_ptr<WsSession>& weak) {
    const auto alive = weak.lock();
    return !alive || alive.get() == session;
  });
  return tables_of_locked(entry);
}

std::vector<std::shared_ptr<WsSession>> Lobby::sessions_of(PlayerId id) const {
  const std::lock_guard lock(mutex_);
  const auto found = players_.find(id);
  if (found == players_.end()) return {};
  std::vector<std::shared_ptr<WsSession>> alive;
  for (const auto& weak : found->second.sessions) {
    if (auto session = weak.lock()) alive.push_back(std::move(session));
  }
  return alive;
}

bool Lobby::connected(PlayerId id) const {
  const std::lock_guard lock(mutex_);
  const auto found = players_.find(id);
  if (found == players_.end()) return false;
  return std::any_of(found->second.sessions.begin(), found->second.sessions.end(),
                     [](const auto& weak) { return !weak.expired(); });
}

std::shared_ptr<Table> Lobby::create_table(std::string name, Player host, const Options& options,
                                           int turn_seconds) {
  const std::lock_guard lock(mutex_);
  const TableId id = next_table_++;
  if (name.empty()) name = "Table " + std::to_string(id);
  auto table = std::make_shared<Table>(net::make_strand(executor_), *this, id, std::move(name),
                                       std::move(host), options, turn_seconds);
  tables_[id].table = table;
  return table;
}

std::shared_ptr<Table> Lobby::find_table(TableId id) const {
  const std::lock_guard lock(mutex_);
  const auto found = tables_.find(id);
  if (found == tables_.end()) return nullptr;
  return found->second.table;
}

void Lobby::seated(PlayerId player, TableId table) {
  const std::lock_guard lock(mutex_);
  if (const auto found = players_.find(player); found != players_.end()) {
    found->second.tables.insert(table);
  }
}

void Lobby::unseated(PlayerId player, TableId table) {
  const std::lock_guard lock(mutex_);
  if (const auto found = players_.find(player); found != players_.end()) {
    found->second.tables.erase(table);
  }
}

void Lobby::publish(TableId id, TableStatus status, protocol::Json table) {
  std::string message = protocol::push_message("lobby.table", {{"table", table}});
  {
    const std::lock_guard lock(mutex_);
    const auto found = tables_.find(id);
    if (found == tables_.end()) return;  // removed meanwhile
    found->second.status = status;
    found->second.description = std::move(table);
  }
  push_to_subscribers(message);
}

void Lobby::remove_table(TableId id) {
  {
    const std::lock_guard lock(mutex_);
    if (tables_.erase(id) == 0) return;
    for (auto& [player, entry] : players_) entry.tables.erase(id);
  }
  push_to_subscribers(protocol::push_message("lobby.table_removed", {{"table", id}}));
}

protocol::Json Lobby::list() const {
  protocol::Json tables = protocol::Json::array();
  const std::lock_guard lock(mutex_);
  for (const auto& [id, listing] : tables_) {
    if (listing.status != TableStatus::finished && !listing.description.is_null()) {
      tables.push_back(listing.description);
    }
  }
  return tables;
}

protocol::Json Lobby::subscribe(const std::shared_ptr<WsSession>& session) {
  {
    const std::lock_guard lock(mutex_);
    subscribers_[session.get()] = session;
  }
  return list();
}

void Lobby::unsubscribe(const WsSession* session) {
  const std::lock_guard lock(mutex_);
  subscribers_.erase(session);
}

void Lobby::push_to_subscribers(const std::string& message) {
  std::vector<std::shared_ptr<WsSession>> receivers;
  {
    const std::lock_guard lock(mutex_);
    for (auto it = subscribers_.begin(); it != subscribers_.end();) {
      if (auto session = it->second.lock()) {
        receivers.push_back(std::move(session));
        ++it;
      } else {
        it = subscribers_.erase(it);
      }
    }
  }
  if (receivers.empty()) return;
  const auto shared = std::make_shared<const std::string>(message);
  for (const auto& session : receivers) session->deliver(shared);
}

void Lobby::close() {
  std::map<TableId, Listing> tables;
  {
    const std::lock_guard lock(mutex_);
    tables.swap(tables_);
    subscribers_.clear();
  }
  for (auto& [id, listing] : tables) listing.table->close();
}

Gauges Lobby::gauges(std::size_t connections) const {
  Gauges gauges;
  gauges.connections = connections;
  const std::lock_guard lock(mutex_);
  gauges.players = players_.size();
  for (const auto& [id, listing] : tables_) {
    switch (listing.status) {
      case TableStatus::open:
        ++gauges.open_tables;
        break;
      case TableStatus::playing:
        ++gauges.playing_tables;
        ++gauges.games_by_phase[static_cast<std::size_t>(listing.table->phase())];
        break;
      case TableStatus::finished:
        ++gauges.finished_tables;
        break;
    }
  }
  return gauges;
}

}  // namespace elgrande::server
