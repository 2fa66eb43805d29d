#include "lobby.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>

#include "table.hpp"
#include "unix_time.hpp"
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

std::string key_of(const db::TokenHash& hash) {
  return std::string(reinterpret_cast<const char*>(hash.data()), hash.size());
}

}  // namespace

db::TokenHash hash_token(std::string_view token) {
  db::TokenHash hash{};
  unsigned int size = 0;
  if (EVP_Digest(token.data(), token.size(), reinterpret_cast<unsigned char*>(hash.data()), &size,
                 EVP_sha256(), nullptr) != 1 ||
      size != hash.size()) {
    throw std::runtime_error("SHA-256 failed");
  }
  return hash;
}

protocol::Json to_json(const Player& player) { return {{"id", player.id}, {"name", player.name}}; }

protocol::Json seat_json(std::size_t seat, std::string_view kind, const std::optional<Player>& player,
                         bool resigned, bool replaced, int timeouts) {
  protocol::Json entry = {{"seat", seat}, {"kind", kind}};
  if (player) entry["player"] = to_json(*player);
  if (resigned) entry["resigned"] = true;
  if (replaced) entry["replaced"] = true;
  if (timeouts > 0) entry["timeouts"] = timeouts;
  return entry;
}

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

std::optional<TableStatus> table_status_from(std::string_view name) {
  for (const TableStatus status : {TableStatus::open, TableStatus::playing, TableStatus::finished}) {
    if (server::name(status) == name) return status;
  }
  return std::nullopt;
}

std::string_view name(OnTimeout policy) {
  return policy == OnTimeout::replace_seat ? "replace_seat" : "bot_answers";
}

std::optional<OnTimeout> on_timeout_from(std::string_view name) {
  if (name == "bot_answers") return OnTimeout::bot_answers;
  if (name == "replace_seat") return OnTimeout::replace_seat;
  return std::nullopt;
}

Lobby::Lobby(net::any_io_executor executor, TableSettings settings, std::shared_ptr<Metrics> metrics,
             Storage& storage, std::shared_ptr<Webhook> webhook)
    : executor_(std::move(executor)),
      settings_(settings),
      metrics_(std::move(metrics)),
      storage_(storage),
      webhook_(std::move(webhook)) {}

void Lobby::restore_players(const std::vector<db::PlayerRecord>& players) {
  const std::lock_guard lock(mutex_);
  for (const db::PlayerRecord& record : players) {
    players_[record.id].player = Player{record.id, record.name};
    tokens_[key_of(record.token_hash)] = record.id;
    next_player_ = std::max(next_player_, record.id + 1);
  }
}

void Lobby::restore_tables(std::vector<db::RestoredTable> restored, TableId highest_id) {
  std::vector<std::shared_ptr<Table>> tables;
  {
    const std::lock_guard lock(mutex_);
    next_table_ = std::max(next_table_, highest_id + 1);
  }
  for (db::RestoredTable& record : restored) {
    const TableId id = record.table.id;
    // Seated before any connection is served, so that a player's first hello finds them.
    for (const db::SeatRecord& seat : record.table.seats) {
      if (seat.player) seated(*seat.player, id);
    }
    auto table = std::make_shared<Table>(net::make_strand(executor_), *this, storage_, std::move(record));
    {
      const std::lock_guard lock(mutex_);
      tables_[id].table = table;
    }
    tables.push_back(std::move(table));
  }
  for (const auto& table : tables) table->resume();
}

void Lobby::create_player(std::optional<std::string> name, IdentitySaved saved) {
  std::string token = new_token();
  const db::TokenHash hash = hash_token(token);
  Player player;
  {
    const std::lock_guard lock(mutex_);
    const PlayerId id = next_player_++;
    player = Player{id, name ? std::move(*name) : "Guest " + std::to_string(id)};
    players_[id].player = player;
    tokens_[key_of(hash)] = id;
  }
  db::PlayerRecord record{player.id, player.name, hash, unix_milliseconds()};
  storage_.write([record = std::move(record)](db::Store& store) { store.insert_player(record); },
                 [identity = Identity{std::move(player), std::move(token)}, saved = std::move(saved)](bool ok) {
                   saved(identity, ok);
                 });
}

std::optional<Player> Lobby::find_player(std::string_view token) const {
  const std::string key = key_of(hash_token(token));
  const std::lock_guard lock(mutex_);
  const auto found = tokens_.find(key);
  if (found == tokens_.end()) return std::nullopt;
  return players_.at(found->second).player;
}

std::optional<Player> Lobby::player(PlayerId id) const {
  const std::lock_guard lock(mutex_);
  const auto found = players_.find(id);
  if (found == players_.end()) return std::nullopt;
  return found->second.player;
}

void Lobby::rename(PlayerId id, std::string name, Storage::Done saved) {
  {
    const std::lock_guard lock(mutex_);
    if (const auto found = players_.find(id); found != players_.end()) {
      found->second.player.name = name;
    }
  }
  storage_.write([id, name = std::move(name)](db::Store& store) { store.rename_player(id, name); },
                 std::move(saved));
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

std::shared_ptr<Table> Lobby::create_table(Player host, TableConfig config) {
  const std::lock_guard lock(mutex_);
  const TableId id = next_table_++;
  if (config.name.empty()) config.name = "Table " + std::to_string(id);
  auto table = std::make_shared<Table>(net::make_strand(executor_), *this, storage_, id,
                                       std::move(host), std::move(config));
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

void Lobby::publish_turns(TableId id, std::uint8_t waiting,
                          const std::array<std::int64_t, kMaxPlayers>& deadlines) {
  const std::lock_guard lock(mutex_);
  const auto found = tables_.find(id);
  if (found == tables_.end()) return;
  found->second.waiting = waiting;
  found->second.deadlines = deadlines;
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

protocol::Json Lobby::games_of(PlayerId player) const {
  protocol::Json mine = protocol::Json::array();
  protocol::Json others = protocol::Json::array();
  const std::lock_guard lock(mutex_);
  const auto entry = players_.find(player);
  if (entry == players_.end()) return mine;
  for (const TableId id : entry->second.tables) {
    const auto found = tables_.find(id);
    if (found == tables_.end() || found->second.description.is_null()) continue;
    const Listing& listing = found->second;
    protocol::Json game = {{"table", listing.description}};
    const protocol::Json& seats = listing.description["seats"];
    // The player's seat, theirs or (resigned or replaced) a bot's now.
    for (const protocol::Json& seat : seats) {
      if (seat.contains("player") && seat["player"]["id"] == player) game["seat"] = seat["seat"];
    }
    if (!game.contains("seat")) continue;
    const int seat = game["seat"].get<int>();
    protocol::Json waiting = protocol::Json::array();
    for (int s = 0; s < static_cast<int>(seats.size()); ++s) {
      if ((listing.waiting >> s) & 1u) waiting.push_back(s);
    }
    const bool my_turn = (listing.waiting >> seat) & 1u;
    game["my_turn"] = my_turn;
    game["waiting_for"] = std::move(waiting);
    if (my_turn && listing.deadlines[static_cast<std::size_t>(seat)] != 0) {
      game["deadline"] = listing.deadlines[static_cast<std::size_t>(seat)];
    }
    (my_turn ? mine : others).push_back(std::move(game));
  }
  for (protocol::Json& game : others) mine.push_back(std::move(game));
  return mine;
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
