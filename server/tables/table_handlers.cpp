// The requests a table answers: seating before the game, chat, and the game's commands.
#include "tables/table.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/unix_time.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

ErrorCode error_for(games::Refusal::Code code) {
  switch (code) {
    case games::Refusal::Code::not_your_turn:
      return ErrorCode::not_your_turn;
    case games::Refusal::Code::game_over:
      return ErrorCode::wrong_state;
    default:
      return ErrorCode::illegal_command;
  }
}

}  // namespace

// --- Requests before the game. ---

void Table::join(const TableRequest& r) {
  if (!require_status(r, TableStatus::open, "join")) return;
  if (chat_.blocks(seating_.host(), r.player.id)) {
    return refuse(r, ErrorCode::forbidden, "the host of this table does not take you at their tables");
  }
  std::optional<int> seat;
  if (!read_seat(r, false, seat)) return;
  const SeatOrRefusal joined = seating_.join(r.player, seat);
  if (const auto* refusal = std::get_if<Refusal>(&joined)) return refuse(r, *refusal);
  feed_.stop_watching(r.from.get());
  save();
  reply(r, {{"table", description()}, {"seat", std::get<int>(joined)}});
  send_recent_chat(r.from, r.player.id);
  send_table_update();
  if (auto_start_ && seating_.full()) start_game();
}

void Table::choose_seat(const TableRequest& r) {
  if (!require_status(r, TableStatus::open, "change seats")) return;
  std::optional<int> seat;
  if (!read_seat(r, true, seat)) return;
  const SeatOrRefusal moved = seating_.move(r.player.id, *seat);
  if (const auto* refusal = std::get_if<Refusal>(&moved)) return refuse(r, *refusal);
  save();
  reply(r, {{"table", description()}, {"seat", *seat}});
  send_table_update();
}

void Table::leave(const TableRequest& r) {
  if (seating_.seat_of(r.player.id) || (status_ == TableStatus::finished && seating_.member_seat(r.player.id))) {
    if (status_ == TableStatus::playing) {
      return refuse(r, ErrorCode::wrong_state, "the game has started: resign instead");
    }
    if (status_ == TableStatus::finished) {
      // Off the player's games; the seat stays in the record.
      seating_.forget(r.player.id);
      feed_.forget(r.player.id);
      reply(r);
      return send_table_update();
    }
    const bool closed = unseat(r.player.id);
    reply(r);
    return closed ? services_.directory.remove(id_) : send_table_update();
  }
  if (!feed_.stop_watching(r.from.get())) return refuse(r, ErrorCode::wrong_state, "you are not at this table");
  reply(r);
  send_table_update();
}

void Table::kick(const TableRequest& r) {
  const Json& payload = r.envelope.payload;
  const PlayerId player = payload.at("player").get<PlayerId>();  // checked by the moderation handler
  const std::string reason = payload.at("reason").get<std::string>();
  if (status_ != TableStatus::open) {
    return refuse(r, ErrorCode::wrong_state, "the game has started: a player can be kicked only before the start");
  }
  if (!seating_.seat_of(player)) return refuse(r, ErrorCode::not_found, "that player does not sit at this table");
  persist([audit = db::AuditEntry{0, unix_milliseconds(), r.player.id, "kick", player, "table " + std::to_string(id_),
                                  reason}](db::Store& store) { store.moderation().audit(audit); });
  const bool closed = unseat(player);
  reply(r);
  const std::string notice =
      protocol::push_message("moderation.notice", {{"action", "kick"}, {"table", id_}, {"reason", reason}});
  for (const RecipientPtr& connection : services_.presence.connections_of(player)) feed_.send(connection, notice);
  return closed ? services_.directory.remove(id_) : send_table_update();
}

void Table::remove_chat(const TableRequest& r) {
  const Json& payload = r.envelope.payload;
  const auto id = payload.find("line");
  if (id == payload.end() || !id->is_number_integer()) return refuse(r, ErrorCode::bad_payload, "line: a chat line's id");
  const std::optional<db::ChatLine> line = chat_.remove(id->get<std::int64_t>());
  if (!line) {
    return refuse(r, ErrorCode::not_found, "no such line among this table's last " +
                                               std::to_string(db::kRecentChat) + " chat lines");
  }
  const std::string reason = payload.at("reason").get<std::string>();  // checked by the moderation handler
  // What was said goes to the audit log, for admins to review; the chat keeps no trace.
  persist([table = id_, audit = db::AuditEntry{0, unix_milliseconds(), r.player.id, "delete_chat", line->player,
                                              "table " + std::to_string(id_) + ": " + line->text, reason},
           line = line->id](db::Store& store) {
    store.remove_chat(table, line, audit.moderator);
    store.moderation().audit(audit);
  });
  reply(r);
  feed_.send_to_members(seating_, protocol::push_message("table.chat_removed", {{"table", id_}, {"line", line->id}}));
  const std::string notice =
      protocol::push_message("moderation.notice", {{"action", "delete_chat"}, {"table", id_}, {"reason", reason}});
  for (const RecipientPtr& connection : services_.presence.connections_of(line->player)) feed_.send(connection, notice);
}

bool Table::unseat(PlayerId player) {
  seating_.leave(player);
  feed_.forget(player);
  welcomed_.erase(player);
  if (seating_.anyone_human()) {
    save();
    return false;
  }
  // Bots alone do not keep a table that has not started.
  closed_ = true;
  persist([id = id_](db::Store& store) { store.delete_table(id); });
  return true;
}

void Table::add_bot(const TableRequest& r) {
  if (!require_status(r, TableStatus::open, "add a bot")) return;
  std::optional<int> seat;
  if (!read_seat(r, false, seat)) return;
  games::BotLevel level = services_.settings.bot_level;
  if (const auto named = r.envelope.payload.find("level"); named != r.envelope.payload.end()) {
    const auto chosen = named->is_string() ? games::bot_level_from_name(named->get<std::string>()) : std::nullopt;
    if (!chosen) return refuse(r, ErrorCode::bad_payload, "level: must be random, easy, medium or strong");
    level = *chosen;
  }
  const SeatOrRefusal added = seating_.add_bot(r.player.id, seat, level);
  if (const auto* refusal = std::get_if<Refusal>(&added)) return refuse(r, *refusal);
  save();
  reply(r, {{"table", description()}, {"seat", std::get<int>(added)}});
  send_table_update();
  if (auto_start_ && seating_.full()) start_game();
}

void Table::remove_bot(const TableRequest& r) {
  if (!require_status(r, TableStatus::open, "remove a bot")) return;
  std::optional<int> seat;
  if (!read_seat(r, true, seat)) return;
  if (auto refusal = seating_.remove_bot(r.player.id, *seat)) return refuse(r, *refusal);
  save();
  reply(r, {{"table", description()}});
  send_table_update();
}

void Table::start(const TableRequest& r) {
  if (!require_status(r, TableStatus::open, "start")) return;
  if (auto refusal = seating_.may_start(r.player.id)) return refuse(r, *refusal);
  start_game(&r);
}

void Table::spectate(const TableRequest& r) {
  if (seating_.seat_of(r.player.id)) return refuse(r, ErrorCode::wrong_state, "you sit at this table");
  // A player who gave the seat up (resigned, replaced) hears the table as a member already.
  const bool member = seating_.member_seat(r.player.id).has_value();
  if (member) feed_.connect(r.player.id, r.from);
  const bool new_spectator = !member && feed_.watch(r.from, r.player.id);
  reply(r, {{"table", description()}});
  send_recent_chat(r.from, r.player.id);
  if (game_) feed_.send_view(r.from, kSpectator, whole_update(kSpectator));
  if (new_spectator) send_table_update();
}

void Table::chat(const TableRequest& r) {
  const auto text = r.envelope.payload.find("text");
  if (const auto bad = TableChat::check_text(text == r.envelope.payload.end() ? nullptr : &*text)) return refuse(r, *bad);
  const auto seat = seating_.seat_of(r.player.id);
  if (!seat && !feed_.watching(r.from.get())) {
    return refuse(r, ErrorCode::wrong_state, "join or spectate the table to chat");
  }
  auto said = chat_.say(r.player, seat, *text, r.received, unix_milliseconds());
  if (const auto* refusal = std::get_if<Refusal>(&said)) return refuse(r, *refusal);
  const db::ChatLine& line = std::get<db::ChatLine>(said);
  persist([id = id_, line](db::Store& store) { store.add_chat(id, line); });
  Json message = TableChat::line_json(line);
  message["table"] = id_;
  reply(r);
  feed_.send_to_members(seating_, protocol::push_message("table.chat", std::move(message)),
                        [this, speaker = r.player.id](PlayerId member) { return !chat_.blocks(member, speaker); });
}

void Table::send_recent_chat(const RecipientPtr& to, PlayerId player) {
  Json lines = chat_.history_for(player);
  if (lines.empty()) return;
  feed_.send(to, protocol::push_message("table.chat_history", {{"table", id_}, {"lines", std::move(lines)}}));
}

// --- Requests during the game. ---

void Table::command(const TableRequest& r) {
  if (status_ != TableStatus::playing) {
    return refuse(r, ErrorCode::wrong_state, status_ == TableStatus::open ? "the game has not started" : "the game is over");
  }
  const auto seat = seating_.seat_of(r.player.id);
  if (!seat) return refuse(r, ErrorCode::forbidden, "you do not play at this table");
  // A command read on the fast path is good already; any other is read here.
  const Json& payload = r.envelope.payload;
  const auto json = payload.find("command");
  std::optional<std::int64_t> answered;
  if (r.game_command) {
    answered = r.game_command->version;
  } else {
    if (json == payload.end()) return refuse(r, ErrorCode::bad_payload, "command: missing");
    if (const auto version = payload.find("version"); version != payload.end()) {
      if (!version->is_number_integer() || version->get<std::int64_t>() < 0) {
        return refuse(r, ErrorCode::bad_payload, "version: must be the game version the command answers");
      }
      answered = version->get<std::int64_t>();
    }
  }
  // An answer given before the seat's pending decision was posed (a double click, a late
  // answer) must not apply to it. Another seat's answer to a simultaneous decision moves
  // the version on but leaves this seat's decision as it was, so it does not count.
  const std::uint32_t posed = posed_at_[static_cast<std::size_t>(*seat)];
  if (answered && (*answered < posed || *answered > game_->version())) {
    return refuse(r, ErrorCode::stale_version,
                  "your decision was posed at version " + std::to_string(posed) + " and the game is at " +
                      std::to_string(game_->version()) + ", not " + std::to_string(*answered) + "; nothing changed");
  }
  games::MovePtr move;
  if (r.game_command) {
    move = r.game_command->move;
  } else {
    auto read = services_.game.read_move(*json);
    if (const auto* why = std::get_if<std::string>(&read)) return refuse(r, ErrorCode::bad_payload, "command: " + *why);
    move = std::get<games::MovePtr>(std::move(read));
  }
  auto played = game_->apply(*seat, *move);
  if (const auto* refusal = std::get_if<games::Refusal>(&played)) {
    const ErrorCode code = error_for(refusal->code);
    // The game's reason goes with the codes that concern the command itself.
    return refuse(r, code, refusal->reason, code == ErrorCode::wrong_state ? std::string_view() : name(refusal->code));
  }
  log(*seat, *move, db::Source::player);
  turn_news_.played.push_back(r.player.id);
  // An answer of the player's own clears the count of timeouts in a row.
  const bool was_late = std::exchange(seating_[*seat].timeouts, 0) > 0;
  services_.metrics.commands.fetch_add(1, std::memory_order_relaxed);
  const games::Step& step = std::get<games::Step>(played);
  const std::uint8_t before = changed(step, *seat, move->undoes());
  feed_.track(r.received);
  reply(r, {{"version", game_->version()}});
  if (was_late) send_table_update();
  announce(step.said.get(), before);
}

void Table::view_again(const TableRequest& r) {
  if (!game_) return refuse(r, ErrorCode::wrong_state, "the game has not started");
  const auto seat = seating_.seat_of(r.player.id);
  if (!seat && !seating_.member_seat(r.player.id) && !feed_.watching(r.from.get())) {
    return refuse(r, ErrorCode::forbidden, "you neither play at nor watch this table");
  }
  const int viewer = seat.value_or(kSpectator);
  reply(r);
  feed_.send_view(r.from, viewer, whole_update(viewer));
}

void Table::resign(const TableRequest& r) {
  if (status_ != TableStatus::playing) {
    return refuse(r, ErrorCode::wrong_state, "only a game in progress can be resigned");
  }
  const auto seat = seating_.seat_of(r.player.id);
  if (!seat) return refuse(r, ErrorCode::wrong_state, "you do not play at this table");
  seating_.resign(*seat, services_.settings.replacement_bot_level);
  turns_.clear(*seat);
  spdlog::info("table {}: seat {} resigned; a bot plays it", id_, *seat);
  save();
  reply(r);
  send_table_update();
  publish_turns();
  if (waiting_bot()) turns_.schedule_bot();
}

// --- Checks and answers. ---

bool Table::require_status(const TableRequest& r, TableStatus status, std::string_view doing) {
  if (status_ == status) return true;
  refuse(r, ErrorCode::wrong_state, "cannot " + std::string(doing) + ": the table is " + std::string(name(status_)));
  return false;
}

bool Table::read_seat(const TableRequest& r, bool required, std::optional<int>& seat) {
  const auto field = r.envelope.payload.find("seat");
  if (field == r.envelope.payload.end()) {
    if (required) refuse(r, ErrorCode::bad_payload, "seat: missing");
    return !required;
  }
  if (!field->is_number_integer()) {
    refuse(r, ErrorCode::bad_payload, "seat: must be an integer");
    return false;
  }
  const auto value = field->get<std::int64_t>();
  if (value < 0 || value >= seating_.size()) {
    refuse(r, ErrorCode::not_found, "no seat " + std::to_string(value) + " at this table");
    return false;
  }
  seat = static_cast<int>(value);
  return true;
}

void Table::reply(const TableRequest& r, Json payload) {
  feed_.send(r.from, std::make_shared<const std::string>(
                         protocol::reply_message(r.envelope.type, r.envelope.id, std::move(payload))),
             TableFeed::Answering{r.envelope.id});
}

void Table::refuse(const TableRequest& r, ErrorCode code, std::string_view message, std::string_view reason,
                   const protocol::Json& facts) {
  services_.metrics.count_error(code);
  // Through the outbox like any answer: a refusal caused by an earlier command of the
  // same client must not overtake that command's reply.
  auto text = facts.is_object() ? protocol::error_message_with(code, message, r.envelope.id, facts)
                                : protocol::error_message(code, message, r.envelope.id, reason);
  feed_.send(r.from, std::make_shared<const std::string>(std::move(text)), TableFeed::Answering{r.envelope.id});
}

}  // namespace elgrande::server
