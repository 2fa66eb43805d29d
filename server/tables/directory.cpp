#include "tables/directory.hpp"

#include <algorithm>

#include "tables/table.hpp"

namespace elgrande::server {

using protocol::Json;

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

TableId TableDirectory::next_id() {
  const std::lock_guard lock(mutex_);
  return next_id_++;
}

void TableDirectory::restored_up_to(TableId highest) {
  const std::lock_guard lock(mutex_);
  next_id_ = std::max(next_id_, highest + 1);
}

void TableDirectory::add(const std::shared_ptr<Table>& table) {
  const std::lock_guard lock(mutex_);
  tables_[table->id()] = table;
}

std::shared_ptr<Table> TableDirectory::find(TableId id) const {
  const std::lock_guard lock(mutex_);
  const auto found = tables_.find(id);
  return found == tables_.end() ? nullptr : found->second;
}

void TableDirectory::publish(TableId id, TableStatus status, const Json& description,
                             std::vector<std::optional<PlayerId>> seats) {
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
    found->second->listing().describe(status, description, std::move(seats));
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
  }
  if (!description.is_null()) push(protocol::push_message("lobby.table", {{"table", description}}));
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
  }
  push(protocol::push_message("lobby.table_removed", {{"table", id}}));
}

std::vector<std::shared_ptr<Table>> TableDirectory::tables_of(PlayerId player) const {
  std::vector<std::shared_ptr<Table>> tables;
  const std::lock_guard lock(mutex_);
  const auto ids = tables_by_player_.find(player);
  if (ids == tables_by_player_.end()) return tables;
  for (const TableId id : ids->second) {
    if (const auto found = tables_.find(id); found != tables_.end()) tables.push_back(found->second);
  }
  std::sort(tables.begin(), tables.end(), [](const auto& a, const auto& b) { return a->id() < b->id(); });
  return tables;
}

Json TableDirectory::list() const {
  std::vector<std::shared_ptr<Table>> tables;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [id, table] : tables_) tables.push_back(table);
  }
  Json listed = Json::array();
  for (const auto& table : tables) {
    TableListing::Entry entry = table->listing().read();
    if (entry.status != TableStatus::finished && !entry.description.is_null()) {
      listed.push_back(std::move(entry.description));
    }
  }
  return listed;
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

Json TableDirectory::subscribe(const RecipientPtr& subscriber) {
  {
    const std::lock_guard lock(mutex_);
    subscribers_[subscriber.get()] = subscriber;
  }
  return list();
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

void TableDirectory::close_all() {
  std::map<TableId, std::shared_ptr<Table>> tables;
  {
    const std::lock_guard lock(mutex_);
    tables.swap(tables_);
    subscribers_.clear();
  }
  for (auto& [id, table] : tables) table->close();
}

void TableDirectory::count(Gauges& gauges) const {
  std::vector<std::shared_ptr<Table>> tables;
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
        ++gauges.games_by_phase[static_cast<std::size_t>(table->phase())];
        break;
      case TableStatus::finished:
        ++gauges.finished_tables;
        break;
    }
  }
}

}  // namespace elgrande::server
