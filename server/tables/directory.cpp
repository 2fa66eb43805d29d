#include "tables/directory.hpp"

#include <algorithm>

#include "events/bus.hpp"
#include "events/events.hpp"
#include "tables/table_endpoint.hpp"

namespace elgrande::server {

using protocol::Json;

protocol::Decoded<LobbyQuery> lobby_query_from_json(const Json& payload) {
  const auto bad = [](std::string message) { return protocol::DecodeError{"bad_payload", std::move(message)}; };
  LobbyQuery query;
  if (const auto field = payload.find("status"); field != payload.end()) {
    const std::optional<TableStatus> status =
        field->is_string() ? table_status_from(field->get_ref<const std::string&>()) : std::nullopt;
    if (status != TableStatus::open && status != TableStatus::playing) return bad("status: must be open or playing");
    query.status = status;
  }
  if (const auto field = payload.find("before"); field != payload.end()) {
    if (!field->is_number_integer() || field->get<std::int64_t>() < 1) return bad("before: must be a table id");
    query.before = field->get<TableId>();
  }
  if (const auto field = payload.find("limit"); field != payload.end()) {
    if (!field->is_number_integer() || field->get<std::int64_t>() < 1 ||
        field->get<std::int64_t>() > static_cast<std::int64_t>(LobbyQuery::kMaxLimit)) {
      return bad("limit: must be from 1 to " + std::to_string(LobbyQuery::kMaxLimit));
    }
    query.limit = field->get<std::size_t>();
  }
  return query;
}

void TableListing::describe(TableStatus status, Json description, std::vector<std::optional<PlayerId>> members) {
  const std::lock_guard lock(mutex_);
  entry_.status = status;
  entry_.description = std::move(description);
  entry_.members = std::move(members);
}

void TableListing::set_turns(Turns turns) {
  const std::lock_guard lock(mutex_);
  entry_.turns = turns;
}

TableListing::Entry TableListing::read() const {
  const std::lock_guard lock(mutex_);
  return entry_;
}

TableStatus TableListing::status() const {
  const std::lock_guard lock(mutex_);
  return entry_.status;
}

void TableDirectory::add(const TableEndpointPtr& table) {
  const std::lock_guard lock(mutex_);
  tables_[table->id()] = table;
}

TableEndpointPtr TableDirectory::find(TableId id) const {
  const std::lock_guard lock(mutex_);
  const auto found = tables_.find(id);
  return found == tables_.end() ? nullptr : found->second;
}

void TableDirectory::publish(TableId id, TableStatus status, const Json& description,
                             std::vector<std::optional<PlayerId>> seats, PlayerId host) {
  std::vector<PlayerId> members;
  for (const auto& player : seats) {
    if (player) members.push_back(*player);
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  {
    const std::lock_guard lock(mutex_);
    const auto found = tables_.find(id);
    if (found == tables_.end()) return;  // removed meanwhile
    found->second->listing().describe(status, description, seats);
    std::vector<PlayerId>& before = members_[id];
    if (before != members) {
      for (const PlayerId gone : before) {
        if (!std::binary_search(members.begin(), members.end(), gone)) std::erase(tables_by_player_[gone], id);
      }
      for (const PlayerId added : members) {
        if (!std::binary_search(before.begin(), before.end(), added)) tables_by_player_[added].push_back(id);
      }
      before = members;
    }
    // The host's role passes on when the host leaves an open table.
    if (const auto [known, added] = host_of_.try_emplace(id, host); !added && known->second != host) {
      forget_hosted(known->second, id);
      known->second = host;
    }
    hosted_by_[host].insert(id);
  }
  if (!description.is_null()) push(protocol::push_message("lobby.table", {{"table", description}}));
  // Read after the change: a watcher that came before it was told of this table by watch().
  if (!watched_.load(std::memory_order_acquire)) return;
  const PublishedTable table{id, status, description, std::move(seats), host};
  for (const auto& watcher : watchers()) watcher->published(table);
}

void TableDirectory::remove(TableId id) {
  {
    const std::lock_guard lock(mutex_);
    if (tables_.erase(id) == 0) return;
    for (const PlayerId member : members_[id]) {
      auto& tables = tables_by_player_[member];
      std::erase(tables, id);
      if (tables.empty()) tables_by_player_.erase(member);
    }
    members_.erase(id);
    if (const auto host = host_of_.find(id); host != host_of_.end()) {
      forget_hosted(host->second, id);
      host_of_.erase(host);
    }
  }
  push(protocol::push_message("lobby.table_removed", {{"table", id}}));
  if (!watched_.load(std::memory_order_acquire)) return;
  for (const auto& watcher : watchers()) watcher->removed(id);
}

void TableDirectory::set_turns(TableId id, TableListing& listing, const TableListing::Turns& turns) {
  listing.set_turns(turns);
  if (!watched_.load(std::memory_order_acquire)) return;
  for (const auto& watcher : watchers()) watcher->turns(id, turns);
}

void TableDirectory::watch(const std::shared_ptr<TableWatcher>& watcher) {
  const std::lock_guard lock(mutex_);
  {
    const std::lock_guard watching(watchers_mutex_);
    watchers_.push_back(watcher);
    watched_.store(true, std::memory_order_release);
  }
  for (const auto& [id, table] : tables_) {
    TableListing::Entry entry = table->listing().read();
    const auto host = host_of_.find(id);
    watcher->published({id, entry.status, std::move(entry.description), std::move(entry.members),
                        host == host_of_.end() ? PlayerId{0} : host->second});
    // A table's set_turns meanwhile may reach the watcher before these (they take no lock
    // of the directory's): "my games" there is then a command behind until the next one.
    watcher->turns(id, entry.turns);
  }
}

std::vector<std::shared_ptr<TableWatcher>> TableDirectory::watchers() {
  const std::lock_guard lock(watchers_mutex_);
  std::vector<std::shared_ptr<TableWatcher>> live;
  std::erase_if(watchers_, [&](const std::weak_ptr<TableWatcher>& watcher) {
    auto held = watcher.lock();
    if (!held) return true;
    live.push_back(std::move(held));
    return false;
  });
  return live;
}

std::vector<TableEndpointPtr> TableDirectory::tables_of(PlayerId player) const {
  std::vector<TableEndpointPtr> tables;
  const std::lock_guard lock(mutex_);
  const auto ids = tables_by_player_.find(player);
  if (ids == tables_by_player_.end()) return tables;
  for (const TableId id : ids->second) {
    if (const auto found = tables_.find(id); found != tables_.end()) tables.push_back(found->second);
  }
  std::sort(tables.begin(), tables.end(), [](const auto& a, const auto& b) { return a->id() < b->id(); });
  return tables;
}

void TableDirectory::forget_hosted(PlayerId host, TableId id) {
  const auto hosted = hosted_by_.find(host);
  if (hosted == hosted_by_.end()) return;
  hosted->second.erase(id);
  if (hosted->second.empty()) hosted_by_.erase(hosted);
}

std::size_t TableDirectory::hosted_unfinished(PlayerId host) const {
  const std::lock_guard lock(mutex_);
  const auto hosted = hosted_by_.find(host);
  if (hosted == hosted_by_.end()) return 0;
  return static_cast<std::size_t>(std::count_if(hosted->second.begin(), hosted->second.end(), [&](TableId id) {
    const auto table = tables_.find(id);
    return table != tables_.end() && table->second->listing().status() != TableStatus::finished;
  }));
}

Json TableDirectory::list(const LobbyQuery& query) const {
  // Newest first from `before`, one more than asked for to learn whether there are more.
  // Each listing is read under its own lock, so the directory's is held only for the walk.
  std::vector<TableEndpointPtr> candidates;
  Json listed = Json::array();
  bool more = false;
  const auto shown = [&query](TableStatus status) {
    return status != TableStatus::finished && (!query.status || status == *query.status);
  };
  std::optional<TableId> before = query.before;
  while (!more) {
    candidates.clear();
    {
      const std::lock_guard lock(mutex_);
      auto it = before ? tables_.lower_bound(*before) : tables_.end();
      while (it != tables_.begin() && candidates.size() < query.limit + 1) candidates.push_back((--it)->second);
    }
    if (candidates.empty()) break;
    for (const auto& table : candidates) {
      // The status first, so that no description is copied only to be passed over.
      if (!shown(table->listing().status())) continue;
      TableListing::Entry entry = table->listing().read();
      if (!shown(entry.status) || entry.description.is_null()) continue;  // changed meanwhile, or not yet described
      if (listed.size() == query.limit) {
        more = true;
        break;
      }
      listed.push_back(std::move(entry.description));
    }
    before = candidates.back()->id();
  }
  return Json{{"tables", std::move(listed)}, {"more", more}};
}

Json TableDirectory::games_of(PlayerId player) const {
  Json mine = Json::array();
  Json others = Json::array();
  for (const auto& table : tables_of(player)) {
    const TableListing::Entry entry = table->listing().read();
    if (entry.description.is_null()) continue;
    // The player's seat, theirs or (resigned or replaced) a bot's now.
    std::optional<int> seat;
    for (std::size_t s = 0; s < entry.members.size(); ++s) {
      if (entry.members[s] == player) seat = static_cast<int>(s);
    }
    if (!seat) continue;
    const std::uint8_t waiting = entry.status == TableStatus::playing ? entry.turns.waiting : 0;
    Json waiting_for = Json::array();
    for (std::size_t s = 0; s < entry.members.size(); ++s) {
      if ((waiting >> s) & 1u) waiting_for.push_back(s);
    }
    const bool my_turn = (waiting >> *seat) & 1u;
    Json game = {{"table", entry.description}, {"seat", *seat}, {"my_turn", my_turn}, {"waiting_for", std::move(waiting_for)}};
    const std::int64_t deadline = entry.turns.deadlines[static_cast<std::size_t>(*seat)];
    if (my_turn && deadline != 0) game["deadline"] = deadline;
    (my_turn ? mine : others).push_back(std::move(game));
  }
  for (Json& game : others) mine.push_back(std::move(game));
  return mine;
}

Json TableDirectory::subscribe(const RecipientPtr& subscriber, const LobbyQuery& query) {
  {
    const std::lock_guard lock(mutex_);
    subscribers_[subscriber.get()] = subscriber;
  }
  return list(query);
}

void TableDirectory::unsubscribe(const Recipient* subscriber) {
  const std::lock_guard lock(mutex_);
  subscribers_.erase(subscriber);
}

void TableDirectory::push(const std::string& message) {
  std::vector<RecipientPtr> receivers;
  {
    const std::lock_guard lock(mutex_);
    for (auto it = subscribers_.begin(); it != subscribers_.end();) {
      if (auto subscriber = it->second.lock()) {
        receivers.push_back(std::move(subscriber));
        ++it;
      } else {
        it = subscribers_.erase(it);
      }
    }
  }
  if (receivers.empty()) return;
  const auto shared = std::make_shared<const std::string>(message);
  for (const auto& subscriber : receivers) subscriber->deliver(shared);
}

std::vector<TableEndpointPtr> TableDirectory::all() const {
  std::vector<TableEndpointPtr> tables;
  const std::lock_guard lock(mutex_);
  tables.reserve(tables_.size());
  for (const auto& [id, table] : tables_) tables.push_back(table);
  return tables;
}

void TableDirectory::listen(Bus& bus) const {
  bus.subscribe<PlayerRenamed>([this](const PlayerRenamed& renamed) {
    for (const auto& table : all()) table->player_renamed(renamed.player);
  });
}

void TableDirectory::close_all() {
  std::map<TableId, TableEndpointPtr> tables;
  {
    const std::lock_guard lock(mutex_);
    tables.swap(tables_);
    subscribers_.clear();
  }
  for (auto& [id, table] : tables) table->close();
}

void TableDirectory::count(Gauges& gauges) const {
  std::vector<TableEndpointPtr> tables;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [id, table] : tables_) tables.push_back(table);
  }
  for (const auto& table : tables) {
    switch (table->listing().status()) {
      case TableStatus::open:
        ++gauges.open_tables;
        break;
      case TableStatus::playing:
        ++gauges.playing_tables;
        if (const auto phase = static_cast<std::size_t>(table->phase()); phase < gauges.phases.size()) {
          gauges.games_by_phase.resize(gauges.phases.size());
          ++gauges.games_by_phase[phase];
        }
        break;
      case TableStatus::finished:
        ++gauges.finished_tables;
        break;
    }
  }
}

}  // namespace elgrande::server
