// What a table tells: its description, the game's updates and result, whose turn it is.
#include "tables/table.hpp"

#include <algorithm>

#include "common/unix_time.hpp"
#include "ratings/ratings.hpp"

namespace elgrande::server {
namespace {

using protocol::Json;

}  // namespace

GameFinished Table::finished_event() const {
  GameFinished finished{*finishing_, {}, services_.game.ladder(config_.options),
                        config_.rated.value_or(false) && game_->over(), config_.name};
  for (const Seat& seat : seating_.seats()) {
    finished.seats.push_back({seat.player ? std::optional(seat.player->id) : std::nullopt, seat.resigned, seat.replaced,
                              seat.player ? seat.player->name : std::string(games::name(seat.bot_level)) + " bot"});
  }
  return finished;
}

Json Table::result() const {
  const std::vector<int> scores = game_->scores();
  Json result = {{"scores", scores}, {"winners", game_->winners()}};
  if (!game_->over()) {
    // Time was called: the game stands as it was, led by the most points.
    const int best = *std::max_element(scores.begin(), scores.end());
    Json leaders = Json::array();
    for (std::size_t s = 0; s < scores.size(); ++s) {
      if (scores[s] == best) leaders.push_back(s);
    }
    result["winners"] = std::move(leaders);
    result["time_called"] = true;
  }
  return result;
}

std::optional<std::string_view> Table::unrated_reason() const {
  if (!config_.rated.value_or(false)) return "table";
  if (status_ == TableStatus::finished && !game_->over()) return "time_called";
  // rate_game rates the seats' players who have accounts, resigned or replaced ones too, and
  // only two or more of them; an open table may still seat more.
  int accounts = 0;
  int empty = 0;
  for (const Seat& seat : seating_.seats()) {
    if (seat.kind == Seat::Kind::empty) ++empty;
    else if (seat.player && services_.has_account && services_.has_account(seat.player->id)) ++accounts;
  }
  if (status_ == TableStatus::open) accounts += empty;
  if (accounts < 2) return "accounts";
  return std::nullopt;
}

Json Table::description() const {
  Json seats = Json::array();
  for (int s = 0; s < seating_.size(); ++s) {
    const Seat& seat = seating_[s];
    Json entry = seat_json(static_cast<std::size_t>(s), name(seat.kind), seat.player, seat.resigned, seat.replaced,
                           seat.timeouts, games::name(seat.bot_level));
    if (seat.kind == Seat::Kind::human) {
      entry["connected"] = services_.presence.connected(seat.player->id);
      if (services_.ratings && services_.has_account && services_.has_account(seat.player->id)) {
        entry["rating"] = services_.ratings->shown(seat.player->id, services_.game.ladder(config_.options));
      }
    }
    seats.push_back(std::move(entry));
  }
  Json table = {{"id", id_},
                {"name", config_.name},
                {"host", seating_.host()},
                {"status", name(status_)},
                {"options", config_.options},
                {"turn_seconds", config_.turn_seconds},
                {"on_timeout", name(config_.on_timeout)},
                {"rated", !unrated_reason()},
                {"seats", std::move(seats)},
                {"spectators", feed_.spectators()}};
  if (const auto why = unrated_reason()) table["unrated"] = *why;
  if (config_.on_timeout == OnTimeout::replace_seat) table["replace_after"] = config_.replace_after;
  if (config_.secrets_closed) table["secrets_after_end"] = "closed";
  if (status_ == TableStatus::finished) table["result"] = result();
  return table;
}

TableFeed::Update Table::game_update(int viewer, const games::Said* said, bool whole, bool patch) {
  games::Frame frame;
  frame.table = id_;
  // A game whose time was called poses nothing more.
  frame.closed = status_ == TableStatus::finished;
  frame.can_undo = !frame.closed && viewer != kSpectator && game_->can_undo(viewer) &&
                   seating_[viewer].kind == Seat::Kind::human;
  if (viewer != kSpectator && turns_.has_deadline(viewer)) frame.deadline = turns_.deadline_unix_ms(viewer);
  return game_->update(viewer, frame, said, whole, patch);
}

std::string Table::whole_update(int viewer) { return game_update(viewer, nullptr, true, false).whole; }

void Table::send_updates(const games::Said* said) {
  feed_.send_update(seating_, [&](int viewer, bool whole, bool patch) { return game_update(viewer, said, whole, patch); });
}

void Table::send_table_update() {
  Json table = description();
  std::vector<std::optional<PlayerId>> members;
  for (const Seat& seat : seating_.seats()) {
    members.push_back(seat.player && !seat.left ? std::optional(seat.player->id) : std::nullopt);
  }
  // Listed first, then the members' connections are looked up: a connection that opens
  // meanwhile either is found here or finds this table listed as the player's, so none
  // is missed (and one found both ways is kept once).
  services_.directory.publish(id_, status_, table, std::move(members), seating_.host());
  for (const PlayerId member : seating_.members()) {
    if (!welcomed_.insert(member).second) continue;
    for (const auto& connection : services_.presence.connections_of(member)) feed_.connect(member, connection);
  }
  feed_.send_to_members(seating_, protocol::push_message("table.update", {{"table", std::move(table)}}));
}

void Table::notify_turns(std::uint8_t before) {
  if (!services_.webhook) return;
  for (int s = 0; s < seating_.size(); ++s) {
    const Seat& seat = seating_[s];
    const bool owes_now = (waiting_ >> s) & 1u;
    const bool owed_before = (before >> s) & 1u;
    if (!owes_now || owed_before || seat.kind != Seat::Kind::human) continue;
    Json body = {{"event", "your_turn"},
                 {"player", to_json(*seat.player)},
                 {"table", {{"id", id_}, {"name", config_.name}}},
                 {"seat", s},
                 {"connected", services_.presence.connected(seat.player->id)},
                 {"time", unix_milliseconds()}};
    if (turns_.has_deadline(s)) body["deadline"] = turns_.deadline_unix_ms(s);
    feed_.notify(body.dump());
  }
}

void Table::publish_turns() {
  TableListing::Turns turns;
  turns.waiting = status_ == TableStatus::playing ? waiting_ : 0;
  for (int s = 0; s < seating_.size(); ++s) turns.deadlines[static_cast<std::size_t>(s)] = turns_.deadline_unix_ms(s);
  services_.directory.set_turns(id_, listing_, turns);
}

}  // namespace elgrande::server
