#include "table.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <random>
#include <unordered_map>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/view.hpp"
#include "unix_time.hpp"
#include "webhook.hpp"
#include "ws_session.hpp"

namespace elgrande::server {
namespace {

namespace protocol = elgrande::protocol;
using protocol::ErrorCode;
using protocol::Json;

constexpr std::size_t kMaxChatBytes = 500;
// A snapshot every so many commands bounds what a restart replays per game.
constexpr std::uint32_t kSnapshotEvery = 32;

std::uint64_t secret_seed() {
  std::random_device entropy("/dev/urandom");
  return (std::uint64_t{entropy()} << 32) | entropy();
}

// A chat line as table.chat and table.chat_history carry it (without the table).
Json chat_line_json(const db::ChatLine& line) {
  Json json = {{"from", to_json(Player{line.player, line.name})}, {"text", line.text}, {"time", line.time}};
  if (line.seat) json["seat"] = *line.seat;
  return json;
}

constexpr std::array<std::string_view, 3> kKindNames{"empty", "human", "bot"};

ErrorCode error_for(Rejection::Code code) {
  switch (code) {
    case Rejection::Code::not_your_turn:
      return ErrorCode::not_your_turn;
    case Rejection::Code::game_over:
      return ErrorCode::wrong_state;
    default:
      return ErrorCode::illegal_command;
  }
}

}  // namespace

Table::Table(net::any_io_executor executor, Lobby& lobby, Storage& storage, TableId id, Player host,
             TableConfig config)
    : strand_(std::move(executor)),
      lobby_(lobby),
      storage_(storage),
      id_(id),
      config_(std::move(config)),
      host_(host.id),
      created_at_ms_(unix_milliseconds()),
      seats_(static_cast<std::size_t>(config_.options.players)),
      bot_timer_(strand_),
      clock_timer_(strand_),
      expiry_timer_(strand_) {
  seats_[0].kind = Seat::Kind::human;
  seats_[0].player = std::move(host);
}

Table::Table(net::any_io_executor executor, Lobby& lobby, Storage& storage, db::RestoredTable restored)
    : strand_(std::move(executor)),
      lobby_(lobby),
      storage_(storage),
      id_(restored.table.id),
      config_{restored.table.name, restored.table.options, restored.table.turn_seconds,
              on_timeout_from(restored.table.on_timeout).value_or(OnTimeout::bot_answers),
              restored.table.replace_after},
      host_(restored.table.host),
      created_at_ms_(restored.table.created_at),
      started_at_ms_(restored.table.started_at),
      finished_at_ms_(restored.table.finished_at),
      status_(table_status_from(restored.table.status).value_or(TableStatus::open)),
      seats_(static_cast<std::size_t>(config_.options.players)),
      recent_chat_(restored.chat.begin(), restored.chat.end()),
      game_(restored.game),
      seed_(restored.table.seed.value_or(0)),
      saved_record_(restored.table),
      bot_timer_(strand_),
      clock_timer_(strand_),
      expiry_timer_(strand_) {
  for (std::size_t s = 0; s < seats_.size() && s < restored.table.seats.size(); ++s) {
    const db::SeatRecord& stored = restored.table.seats[s];
    Seat& seat = seats_[s];
    seat.kind = stored.kind == "human" ? Seat::Kind::human
                : stored.kind == "bot" ? Seat::Kind::bot
                                       : Seat::Kind::empty;
    if (stored.player) {
      seat.player = lobby_.player(*stored.player).value_or(Player{*stored.player, "?"});
    }
    seat.resigned = stored.resigned;
    seat.replaced = stored.replaced;
    seat.timeouts = stored.timeouts;
    if (stored.deadline) seat.deadline_unix_ms = *stored.deadline;
  }
  if (game_) {
    waiting_ = waiting_for(*game_);
    phase_.store(game_->phase, std::memory_order_relaxed);
    snapshot_version_ = game_->version - static_cast<std::uint32_t>(restored.replayed);
  }
}

// --- Entry points: each hops onto the strand. ---

void Table::open(std::shared_ptr<WsSession> host_session,
                 std::optional<protocol::RequestId> request_id) {
  net::post(strand_, [self = shared_from_this(), host_session = std::move(host_session),
                      request_id = std::move(request_id)] {
    self->guarded([&] {
      self->lobby_.seated(self->host_, self->id_);
      self->save();
      self->send(host_session, protocol::reply_message("table.create", request_id,
                                                       {{"table", self->description()}}));
      self->send_table_update();
    });
  });
}

void Table::resume() {
  net::post(strand_, [self = shared_from_this()] {
    self->guarded([&] {
      // Deadlines are wall-clock times; one that passed while the server was down (or is
      // about to) is pushed back, so that the player gets a fair chance to come back.
      const auto now_unix = unix_milliseconds();
      const auto grace = std::chrono::milliseconds(
          std::min<std::int64_t>(std::chrono::milliseconds(self->lobby_.settings().restart_grace).count(),
                                 std::int64_t{self->config_.turn_seconds} * 1000));
      for (Seat& seat : self->seats_) {
        if (seat.deadline_unix_ms == 0) continue;
        const auto left = std::max(std::chrono::milliseconds(seat.deadline_unix_ms - now_unix), grace);
        seat.deadline = Clock::now() + left;
        seat.deadline_unix_ms = now_unix + left.count();
      }
      self->save();
      self->send_table_update();
      if (self->status_ == TableStatus::finished) {
        const auto ends = std::chrono::system_clock::time_point(std::chrono::milliseconds(*self->finished_at_ms_)) +
                          self->lobby_.settings().finished_lifetime;
        return self->expire(std::chrono::duration_cast<Clock::duration>(ends - std::chrono::system_clock::now()));
      }
      if (self->status_ != TableStatus::playing) return;
      self->publish_turns();
      self->schedule_bot();
      self->schedule_clock();
    });
  });
}

void Table::handle(std::shared_ptr<WsSession> session, Player player, protocol::Envelope request,
                   Clock::time_point received) {
  net::post(strand_, [self = shared_from_this(),
                      r = Request{std::move(session), std::move(player), std::move(request)},
                      received] {
    self->guarded([&] {
      using Handler = void (Table::*)(const Request&);
      static const std::unordered_map<std::string_view, Handler> kHandlers{
          {"table.join", &Table::join},          {"table.seat", &Table::choose_seat},
          {"table.leave", &Table::leave},        {"table.add_bot", &Table::add_bot},
          {"table.remove_bot", &Table::remove_bot}, {"table.start", &Table::start},
          {"table.spectate", &Table::spectate},  {"table.chat", &Table::chat},
          {"game.resign", &Table::resign},
      };
      if (self->broken_) {
        return self->refuse(r, ErrorCode::internal,
                            "this table stopped on a server error; a restart brings it back as last saved");
      }
      if (self->closed_) return self->refuse(r, ErrorCode::not_found, "the table is gone");
      // Spectating changes nothing that is saved; everything else waits for a healthy disk.
      if (!self->storage_.healthy() && r.envelope.type != "table.spectate") {
        return self->refuse(r, ErrorCode::unavailable,
                            "the server cannot save changes at the moment; nothing changed, try again shortly");
      }
      if (r.envelope.type == "game.command") return self->command(r, received);
      const auto found = kHandlers.find(r.envelope.type);
      if (found == kHandlers.end()) {
        return self->refuse(r, ErrorCode::unknown_type, "unknown message type");
      }
      (self.get()->*found->second)(r);
    });
  });
}

void Table::player_connected(std::shared_ptr<WsSession> session, PlayerId player) {
  net::post(strand_, [self = shared_from_this(), session = std::move(session), player] {
    self->guarded([&] {
      if (self->closed_) return;
      self->send_table_update();  // the player shows as connected again
      self->send_recent_chat(session);
      if (!self->game_) return;
      const auto seat = self->seat_of(player);
      // A player whose seat a bot took over watches like a spectator.
      self->send(session, self->game_update(seat.value_or(kSpectator), {}));
      // Back after the end (a connection lost at the last move): the result too.
      if (self->status_ == TableStatus::finished) {
        self->send(session, protocol::push_message("game.over", {{"table", self->id_}, {"result", self->result()}}));
      }
    });
  });
}

void Table::player_disconnected(PlayerId /*player*/) {
  net::post(strand_, [self = shared_from_this()] {
    self->guarded([&] {
      if (!self->closed_) self->send_table_update();
    });
  });
}

void Table::spectator_left(const WsSession* session) {
  net::post(strand_, [self = shared_from_this(), session] {
    self->guarded([&] {
      const auto before = self->spectators_.size();
      std::erase_if(self->spectators_, [&](const std::weak_ptr<WsSession>& weak) {
        const auto alive = weak.lock();
        return !alive || alive.get() == session;
      });
      if (!self->closed_ && self->spectators_.size() != before) self->send_table_update();
    });
  });
}

void Table::close() {
  net::post(strand_, [self = shared_from_this()] {
    self->guarded([&] {
      self->closed_ = true;
      self->bot_timer_.cancel();
      self->clock_timer_.cancel();
      self->expiry_timer_.cancel();
    });
  });
}

// --- Lobby requests. ---

void Table::join(const Request& r) {
  if (const auto mine = seat_of(r.player.id)) {
    return refuse(r, ErrorCode::wrong_state, "you already sit at seat " + std::to_string(*mine));
  }
  if (!require_status(r, TableStatus::open, "join")) return;
  std::optional<int> seat;
  if (!pick_empty_seat(r, seat)) return;
  seats_[*seat] = Seat{};
  seats_[*seat].kind = Seat::Kind::human;
  seats_[*seat].player = r.player;
  std::erase_if(spectators_, [&](const auto& weak) { return weak.lock() == r.session; });
  lobby_.seated(r.player.id, id_);
  save();
  reply(r, {{"table", description()}, {"seat", *seat}});
  send_recent_chat(r.session);
  send_table_update();
}

void Table::choose_seat(const Request& r) {
  if (!require_status(r, TableStatus::open, "change seats")) return;
  const auto mine = seat_of(r.player.id);
  if (!mine) return refuse(r, ErrorCode::wrong_state, "you do not sit at this table");
  std::optional<int> seat;
  if (!read_seat(r, true, seat)) return;
  if (*seat != *mine) {
    if (seats_[*seat].kind != Seat::Kind::empty) {
      return refuse(r, ErrorCode::seat_taken, "seat " + std::to_string(*seat) + " is taken");
    }
    std::swap(seats_[*seat], seats_[*mine]);
    save();
  }
  reply(r, {{"table", description()}, {"seat", *seat}});
  send_table_update();
}

void Table::leave(const Request& r) {
  if (const auto mine = seat_of(r.player.id)) {
    if (status_ == TableStatus::playing) {
      return refuse(r, ErrorCode::wrong_state, "the game has started: resign instead");
    }
    lobby_.unseated(r.player.id, id_);
    if (status_ == TableStatus::open) {
      seats_[*mine] = Seat{};
      if (is_host(r.player.id)) hand_over_host();
    }
    const bool anyone_left = std::any_of(seats_.begin(), seats_.end(), [](const Seat& seat) {
      return seat.kind == Seat::Kind::human;
    });
    if (status_ == TableStatus::open && !anyone_left) {
      // Bots alone do not keep a table that has not started.
      closed_ = true;
      persist([id = id_](db::Store& store) { store.delete_table(id); });
      reply(r);
      lobby_.remove_table(id_);
      return;
    }
    if (status_ == TableStatus::open) save();
    reply(r);
    if (status_ == TableStatus::open) send_table_update();
    return;
  }
  const auto before = spectators_.size();
  std::erase_if(spectators_, [&](const auto& weak) {
    const auto alive = weak.lock();
    return !alive || alive == r.session;
  });
  if (spectators_.size() == before) {
    return refuse(r, ErrorCode::wrong_state, "you are not at this table");
  }
  reply(r);
  send_table_update();
}

void Table::add_bot(const Request& r) {
  if (!require_status(r, TableStatus::open, "add a bot") || !require_host(r)) return;
  std::optional<int> seat;
  if (!pick_empty_seat(r, seat)) return;
  seats_[*seat].kind = Seat::Kind::bot;
  save();
  reply(r, {{"table", description()}, {"seat", *seat}});
  send_table_update();
}

void Table::remove_bot(const Request& r) {
  if (!require_status(r, TableStatus::open, "remove a bot") || !require_host(r)) return;
  std::optional<int> seat;
  if (!read_seat(r, true, seat)) return;
  if (seats_[*seat].kind != Seat::Kind::bot) {
    return refuse(r, ErrorCode::wrong_state, "seat " + std::to_string(*seat) + " is not a bot");
  }
  seats_[*seat] = Seat{};
  save();
  reply(r, {{"table", description()}});
  send_table_update();
}

void Table::start(const Request& r) {
  if (!require_status(r, TableStatus::open, "start") || !require_host(r)) return;
  if (const auto empty = first_empty_seat()) {
    return refuse(r, ErrorCode::wrong_state,
                  "seat " + std::to_string(*empty) + " is empty: seat a player or a bot");
  }
  seed_ = secret_seed();
  Events events;
  game_ = new_game(config_.options, seed_, &events);
  status_ = TableStatus::playing;
  started_at_ms_ = unix_milliseconds();
  lobby_.metrics().games_started.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("table {}: game started ({} seats)", id_, seats_.size());
  const std::uint8_t before = changed(std::nullopt);
  reply(r);
  send_table_update();
  announce(events, before);
}

void Table::spectate(const Request& r) {
  if (seat_of(r.player.id)) return refuse(r, ErrorCode::wrong_state, "you sit at this table");
  const bool watching = std::any_of(spectators_.begin(), spectators_.end(),
                                    [&](const auto& weak) { return weak.lock() == r.session; });
  if (!watching) spectators_.push_back(r.session);
  reply(r, {{"table", description()}});
  send_recent_chat(r.session);
  if (game_) send(r.session, game_update(kSpectator, {}));
  if (!watching) send_table_update();
}

void Table::chat(const Request& r) {
  const auto text = r.envelope.payload.find("text");
  if (text == r.envelope.payload.end() || !text->is_string() ||
      text->get_ref<const std::string&>().empty() ||
      text->get_ref<const std::string&>().size() > kMaxChatBytes) {
    return refuse(r, ErrorCode::bad_payload,
                  "text: must be a string of 1 to " + std::to_string(kMaxChatBytes) + " bytes");
  }
  const auto seat = seat_of(r.player.id);
  const bool watching = std::any_of(spectators_.begin(), spectators_.end(),
                                    [&](const auto& weak) { return weak.lock() == r.session; });
  if (!seat && !watching) {
    return refuse(r, ErrorCode::wrong_state, "join or spectate the table to chat");
  }
  const db::ChatLine line{r.player.id, r.player.name, seat, text->get<std::string>(), unix_milliseconds()};
  persist([id = id_, line](db::Store& store) { store.add_chat(id, line); });
  recent_chat_.push_back(line);
  if (recent_chat_.size() > static_cast<std::size_t>(db::kRecentChat)) recent_chat_.pop_front();
  Json message = chat_line_json(line);
  message["table"] = id_;
  reply(r);
  send_to_members(protocol::push_message("table.chat", std::move(message)));
}

void Table::send_recent_chat(const std::shared_ptr<WsSession>& to) {
  if (recent_chat_.empty()) return;
  Json lines = Json::array();
  for (const db::ChatLine& line : recent_chat_) lines.push_back(chat_line_json(line));
  send(to, protocol::push_message("table.chat_history", {{"table", id_}, {"lines", std::move(lines)}}));
}

// --- Game requests. ---

void Table::command(const Request& r, Clock::time_point received) {
  if (status_ != TableStatus::playing) {
    return refuse(r, ErrorCode::wrong_state,
                  status_ == TableStatus::open ? "the game has not started" : "the game is over");
  }
  const auto seat = seat_of(r.player.id);
  if (!seat) return refuse(r, ErrorCode::forbidden, "you do not play at this table");
  const auto json = r.envelope.payload.find("command");
  if (json == r.envelope.payload.end()) {
    return refuse(r, ErrorCode::bad_payload, "command: missing");
  }
  protocol::Decoded<Command> decoded = protocol::command_from_json(*json);
  if (!decoded) {
    return refuse(r, ErrorCode::bad_payload, "command: " + decoded.error().message);
  }
  Events events;
  if (const auto rejection = apply(*game_, *seat, decoded.value(), events)) {
    const ErrorCode code = error_for(rejection->code);
    // The engine's reason goes with the codes that concern the command itself.
    return refuse(r, code, rejection->reason,
                  code == ErrorCode::wrong_state ? std::string_view() : name(rejection->code));
  }
  unsaved_.push_back(db::LoggedCommand{game_->version, static_cast<elgrande::Seat>(*seat),
                                       std::move(decoded.value()), db::Source::player,
                                       unix_milliseconds()});
  // An answer of the player's own clears the count of timeouts in a row.
  const bool was_late = std::exchange(seats_[static_cast<std::size_t>(*seat)].timeouts, 0) > 0;
  lobby_.metrics().commands.fetch_add(1, std::memory_order_relaxed);
  const std::uint8_t before = changed(*seat);
  commands_waiting_.emplace_back(saves_, received);
  reply(r, {{"version", game_->version}});
  if (was_late) send_table_update();
  announce(events, before);
}

void Table::resign(const Request& r) {
  if (status_ != TableStatus::playing) {
    return refuse(r, ErrorCode::wrong_state, "only a game in progress can be resigned");
  }
  const auto seat = seat_of(r.player.id);
  if (!seat) return refuse(r, ErrorCode::wrong_state, "you do not play at this table");
  seats_[static_cast<std::size_t>(*seat)].resigned = true;
  hand_to_bot(*seat);
  spdlog::info("table {}: seat {} resigned; a bot plays it", id_, *seat);
  save();
  reply(r);
  send_table_update();
  publish_turns();
  schedule_bot();
}

// --- Checks and answers. ---

bool Table::require_status(const Request& r, TableStatus status, std::string_view doing) {
  if (status_ == status) return true;
  refuse(r, ErrorCode::wrong_state,
         "cannot " + std::string(doing) + ": the table is " + std::string(name(status_)));
  return false;
}

bool Table::require_host(const Request& r) {
  if (is_host(r.player.id)) return true;
  refuse(r, ErrorCode::forbidden, "only the table's host may do this");
  return false;
}

bool Table::pick_empty_seat(const Request& r, std::optional<int>& seat) {
  if (!read_seat(r, false, seat)) return false;
  if (!seat) {
    seat = first_empty_seat();
    if (!seat) refuse(r, ErrorCode::table_full, "every seat is taken");
    return seat.has_value();
  }
  if (seats_[*seat].kind == Seat::Kind::empty) return true;
  refuse(r, ErrorCode::seat_taken, "seat " + std::to_string(*seat) + " is taken");
  return false;
}

bool Table::read_seat(const Request& r, bool required, std::optional<int>& seat) {
  const auto field = r.envelope.payload.find("seat");
  if (field == r.envelope.payload.end()) {
    if (!required) return true;
    refuse(r, ErrorCode::bad_payload, "seat: missing");
    return false;
  }
  if (!field->is_number_integer()) {
    refuse(r, ErrorCode::bad_payload, "seat: must be an integer");
    return false;
  }
  const auto value = field->get<std::int64_t>();
  if (value < 0 || value >= static_cast<std::int64_t>(seats_.size())) {
    refuse(r, ErrorCode::not_found, "no seat " + std::to_string(value) + " at this table");
    return false;
  }
  seat = static_cast<int>(value);
  return true;
}

void Table::reply(const Request& r, Json payload) {
  send(r.session, protocol::reply_message(r.envelope.type, r.envelope.id, std::move(payload)));
}

void Table::refuse(const Request& r, ErrorCode code, std::string_view message,
                   std::string_view reason) {
  lobby_.metrics().count_error(code);
  // Through the outbox like any answer: a refusal caused by an earlier command of the
  // same client must not overtake that command's reply.
  send(r.session, protocol::error_message(code, message, r.envelope.id, reason));
}

std::optional<int> Table::seat_of(PlayerId player) const {
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (seats_[s].kind == Seat::Kind::human && seats_[s].player->id == player) {
      return static_cast<int>(s);
    }
  }
  return std::nullopt;
}

std::optional<int> Table::first_empty_seat() const {
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (seats_[s].kind == Seat::Kind::empty) return static_cast<int>(s);
  }
  return std::nullopt;
}

void Table::hand_over_host() {
  for (const Seat& seat : seats_) {
    if (seat.kind == Seat::Kind::human) {
      host_ = seat.player->id;
      return;
    }
  }
}

void Table::hand_to_bot(int s) {
  Seat& seat = seats_[static_cast<std::size_t>(s)];
  seat.kind = Seat::Kind::bot;
  seat.deadline.reset();
  seat.deadline_unix_ms = 0;
  // The player stays a member of the table and watches the rest of the game.
}

// --- The game. ---

void Table::play(int seat, const Command& command, db::Source source, Events& events) {
  if (const auto rejection = apply(*game_, seat, command, events)) {
    // The bot draws from the engine's own constraints; a refusal is an engine bug.
    throw InvariantBroken("table " + std::to_string(id_) + ": the engine refused its bot: " +
                          rejection->reason);
  }
  unsaved_.push_back(db::LoggedCommand{game_->version, static_cast<elgrande::Seat>(seat), command,
                                       source, unix_milliseconds()});
  lobby_.metrics().bot_commands.fetch_add(1, std::memory_order_relaxed);
}

std::uint8_t Table::changed(std::optional<int> actor) {
  const std::uint8_t before = waiting_;
  waiting_ = waiting_for(*game_);
  phase_.store(game_->phase, std::memory_order_relaxed);
  update_deadlines(actor);
  if (is_over(*game_)) {
    status_ = TableStatus::finished;
    finished_at_ms_ = unix_milliseconds();
  }
  save();
  return before;
}

void Table::announce(const Events& events, std::uint8_t waiting_before) {
  send_game_updates(events);
  publish_turns();
  if (status_ == TableStatus::finished) return finish();
  notify_turns(waiting_before);
  schedule_bot();
  schedule_clock();
}

void Table::after_change(const Events& events, std::optional<int> actor) {
  const std::uint8_t before = changed(actor);
  announce(events, before);
}

void Table::update_deadlines(std::optional<int> actor) {
  if (config_.turn_seconds == 0) return;
  const auto limit = std::chrono::seconds(config_.turn_seconds);
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    Seat& seat = seats_[s];
    const bool owes = (waiting_ >> s) & 1u;
    if (!owes || seat.kind != Seat::Kind::human) {
      seat.deadline.reset();
      seat.deadline_unix_ms = 0;
    } else if (!seat.deadline || actor == static_cast<int>(s)) {
      // A new decision gets the full time; one still open keeps its deadline.
      seat.deadline = Clock::now() + limit;
      seat.deadline_unix_ms = unix_milliseconds(std::chrono::system_clock::now() + limit);
    }
  }
}

std::optional<int> Table::waiting_bot() const {
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (((waiting_ >> s) & 1u) && seats_[s].kind == Seat::Kind::bot) return static_cast<int>(s);
  }
  return std::nullopt;
}

// The bots' choices are logged like anyone's, so their generator needs no saving: it is
// drawn afresh from the secret seed and the game's version, the same after a restart.
Rng Table::bot_rng() const {
  return Rng{seed_ ^ 0xB07B07B07B07B07Bull ^ (std::uint64_t{game_->version} * 0x9E3779B97F4A7C15ull)};
}

void Table::schedule_bot() {
  if (bot_scheduled_ || closed_ || broken_ || !game_ || status_ != TableStatus::playing ||
      !waiting_bot()) {
    return;
  }
  bot_scheduled_ = true;
  bot_timer_.expires_after(lobby_.settings().bot_delay);
  bot_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    self->bot_scheduled_ = false;
    if (ec || self->closed_ || self->broken_ || self->status_ != TableStatus::playing) return;
    self->guarded([&] {
      const auto seat = self->waiting_bot();
      if (!seat) return;
      Rng rng = self->bot_rng();
      Events events;
      self->play(*seat, random_command(*self->game_, *seat, rng), db::Source::bot, events);
      self->after_change(events, *seat);
    });
  });
}

void Table::schedule_clock() {
  if (config_.turn_seconds == 0 || closed_ || broken_) return;
  std::optional<Clock::time_point> earliest;
  for (const Seat& seat : seats_) {
    if (seat.deadline && (!earliest || *seat.deadline < *earliest)) earliest = seat.deadline;
  }
  if (!earliest) return;
  // Re-arming cancels the previous wait; a cancelled wait that had already completed is
  // recognised by its stale generation.
  const std::uint64_t generation = ++clock_generation_;
  clock_timer_.expires_at(*earliest);
  clock_timer_.async_wait([self = shared_from_this(), generation](beast::error_code ec) {
    if (ec || generation != self->clock_generation_) return;
    self->guarded([&] { self->on_clock(); });
  });
}

void Table::on_clock() {
  if (closed_ || broken_ || status_ != TableStatus::playing) return;
  const auto now = Clock::now();
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    Seat& seat = seats_[s];
    if (!seat.deadline || *seat.deadline > now) continue;
    const int late = static_cast<int>(s);
    lobby_.metrics().timeouts.fetch_add(1, std::memory_order_relaxed);
    ++seat.timeouts;
    const bool replace = config_.on_timeout == OnTimeout::replace_seat &&
                         seat.timeouts >= config_.replace_after;
    spdlog::info("table {}: seat {} ran out of time ({} in a row); the server's bot answers{}", id_,
                 late, seat.timeouts, replace ? " and keeps the seat" : "");
    if (replace) {
      seat.replaced = true;
      hand_to_bot(late);
    }
    Rng rng = bot_rng();
    Events events;
    play(late, random_command(*game_, late, rng), db::Source::timeout, events);
    const std::uint8_t before = changed(late);
    send_table_update();  // the seat's timeouts, or its new bot
    return announce(events, before);  // re-arms the clock for the others
  }
  schedule_clock();
}

void Table::finish() {
  bot_timer_.cancel();
  clock_timer_.cancel();
  lobby_.metrics().games_finished.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("table {}: game over, scores {}", id_, result()["scores"].dump());
  send_to_members(protocol::push_message("game.over", {{"table", id_}, {"result", result()}}));
  send_table_update();
  expire(lobby_.settings().finished_lifetime);
}

void Table::expire(Clock::duration after) {
  expiry_timer_.expires_after(after);
  expiry_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (ec || self->closed_) return;
    self->closed_ = true;
    self->lobby_.remove_table(self->id_);
  });
}

// --- Persistence. ---

db::TableRecord Table::record() const {
  db::TableRecord record;
  record.id = id_;
  record.name = config_.name;
  record.host = host_;
  record.status = std::string(name(status_));
  record.options = config_.options;
  record.turn_seconds = config_.turn_seconds;
  record.on_timeout = std::string(name(config_.on_timeout));
  record.replace_after = config_.replace_after;
  record.created_at = created_at_ms_;
  if (game_) record.seed = seed_;
  record.started_at = started_at_ms_;
  record.finished_at = finished_at_ms_;
  for (const Seat& seat : seats_) {
    db::SeatRecord stored;
    stored.kind = std::string(kKindNames[static_cast<std::size_t>(seat.kind)]);
    if (seat.player) stored.player = seat.player->id;
    stored.resigned = seat.resigned;
    stored.replaced = seat.replaced;
    stored.timeouts = seat.timeouts;
    if (seat.deadline_unix_ms != 0) stored.deadline = seat.deadline_unix_ms;
    record.seats.push_back(std::move(stored));
  }
  return record;
}

void Table::save() {
  std::optional<db::TableRecord> changed = record();
  if (changed == saved_record_) {
    changed.reset();
  } else {
    saved_record_ = changed;
  }
  std::optional<GameState> snapshot;
  std::optional<std::string> result_json;
  if (game_ && status_ == TableStatus::playing && game_->version >= snapshot_version_ + kSnapshotEvery) {
    snapshot = *game_;
    snapshot_version_ = game_->version;
  }
  if (!changed && unsaved_.empty() && !snapshot) return;
  if (changed && status_ == TableStatus::finished) result_json = result().dump();
  persist([id = id_, changed = std::move(changed), commands = std::exchange(unsaved_, {}),
           snapshot = std::move(snapshot), result_json = std::move(result_json),
           finished = status_ == TableStatus::finished](db::Store& store) {
    if (changed) store.save_table(*changed, result_json);
    store.append_commands(id, commands);
    if (snapshot) store.save_snapshot(id, *snapshot);
    if (finished) store.delete_snapshot(id);  // the log is the record from now on
  });
}

void Table::persist(Storage::Work work) {
  ++saves_;
  storage_.write(std::move(work), [self = shared_from_this(), save = saves_](bool committed) {
    net::post(self->strand_, [self, save, committed] { self->saved(save, committed); });
  });
}

void Table::stop(std::string_view why) {
  if (!broken_) spdlog::critical("table {}: {}; the table stops until the server restarts", id_, why);
  broken_ = true;
  bot_timer_.cancel();
  clock_timer_.cancel();
}

void Table::saved(std::uint64_t save, bool committed) {
  if (!committed) {
    // The state in memory is ahead of the database and cannot be trusted to become the
    // game's: stop the table. A restart brings it back as last committed.
    stop("a save failed for good");
    outbox_.clear();
    commands_waiting_.clear();
    return;
  }
  committed_ = std::max(committed_, save);
  flush();
}

void Table::send(const std::shared_ptr<WsSession>& to, std::shared_ptr<const std::string> message) {
  if (outbox_.empty() && committed_ == saves_) return dispatch(to, std::move(message));
  outbox_.push_back(Outgoing{saves_, to, std::move(message)});
}

void Table::dispatch(const std::shared_ptr<WsSession>& to, std::shared_ptr<const std::string> message) {
  if (to) {
    to->deliver(std::move(message));
  } else if (Webhook* webhook = lobby_.webhook()) {
    webhook->notify(std::move(message));
  }
}

void Table::flush() {
  while (!outbox_.empty() && outbox_.front().after_save <= committed_) {
    dispatch(outbox_.front().to, std::move(outbox_.front().message));
    outbox_.pop_front();
  }
  const auto now = Clock::now();
  while (!commands_waiting_.empty() && commands_waiting_.front().first <= committed_) {
    lobby_.metrics().command_latency.observe(now - commands_waiting_.front().second);
    commands_waiting_.pop_front();
  }
}

// --- Messages. ---

Json Table::result() const {
  const Json summary = protocol::summary_json(*game_);
  return {{"scores", summary["scores"]}, {"winners", summary["winners"]}};
}

Json Table::description() const {
  Json seats = Json::array();
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    const Seat& seat = seats_[s];
    Json entry = seat_json(s, kKindNames[static_cast<std::size_t>(seat.kind)], seat.player, seat.resigned,
                           seat.replaced, seat.timeouts);
    if (seat.kind == Seat::Kind::human) entry["connected"] = lobby_.connected(seat.player->id);
    seats.push_back(std::move(entry));
  }
  const auto watching = std::count_if(spectators_.begin(), spectators_.end(),
                                      [](const auto& weak) { return !weak.expired(); });
  Json table = {{"id", id_},
                {"name", config_.name},
                {"host", host_},
                {"status", name(status_)},
                {"options", protocol::to_json(config_.options)},
                {"turn_seconds", config_.turn_seconds},
                {"on_timeout", name(config_.on_timeout)},
                {"seats", std::move(seats)},
                {"spectators", watching}};
  if (config_.on_timeout == OnTimeout::replace_seat) table["replace_after"] = config_.replace_after;
  if (status_ == TableStatus::finished) table["result"] = result();
  return table;
}

std::string Table::game_update(int viewer, const Events& events) const {
  Json shown = Json::array();
  for (const Event& event : visible_to(events, viewer)) {
    shown.push_back(protocol::to_json(event, config_.options));
  }
  Json payload = {{"table", id_},
                  {"version", game_->version},
                  {"view", protocol::to_json(view(*game_, viewer))},
                  {"events", std::move(shown)}};
  if (viewer != kSpectator && seats_[static_cast<std::size_t>(viewer)].deadline) {
    payload["deadline"] = seats_[static_cast<std::size_t>(viewer)].deadline_unix_ms;
  }
  return protocol::push_message("game.update", std::move(payload));
}

void Table::send_table_update() {
  Json table = description();
  send_to_members(protocol::push_message("table.update", {{"table", table}}));
  lobby_.publish(id_, status_, std::move(table));
}

void Table::send_game_updates(const Events& events) {
  std::vector<std::shared_ptr<WsSession>> watching;
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (!seats_[s].player) continue;
    auto sessions = lobby_.sessions_of(seats_[s].player->id);
    if (seats_[s].kind != Seat::Kind::human) {  // resigned or replaced: a spectator now
      watching.insert(watching.end(), sessions.begin(), sessions.end());
      continue;
    }
    if (sessions.empty()) continue;  // nobody to serialise it for
    const auto message =
        std::make_shared<const std::string>(game_update(static_cast<int>(s), events));
    for (const auto& session : sessions) send(session, message);
  }
  for (const auto& weak : spectators_) {
    if (auto session = weak.lock()) watching.push_back(std::move(session));
  }
  if (watching.empty()) return;
  const auto message = std::make_shared<const std::string>(game_update(kSpectator, events));
  for (const auto& session : watching) send(session, message);
}

void Table::send_to_members(const std::string& text) {
  const auto message = std::make_shared<const std::string>(text);
  for (const Seat& seat : seats_) {
    if (!seat.player) continue;  // players who resigned or were replaced still belong
    for (const auto& session : lobby_.sessions_of(seat.player->id)) send(session, message);
  }
  std::erase_if(spectators_, [](const auto& weak) { return weak.expired(); });
  for (const auto& weak : spectators_) {
    if (auto session = weak.lock()) send(session, message);
  }
}

void Table::notify_turns(std::uint8_t before) {
  if (!lobby_.webhook()) return;
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    const Seat& seat = seats_[s];
    const bool owes_now = (waiting_ >> s) & 1u;
    const bool owed_before = (before >> s) & 1u;
    if (!owes_now || owed_before || seat.kind != Seat::Kind::human) continue;
    Json body = {{"event", "your_turn"},
                 {"player", to_json(*seat.player)},
                 {"table", {{"id", id_}, {"name", config_.name}}},
                 {"seat", s},
                 {"connected", lobby_.connected(seat.player->id)},
                 {"time", unix_milliseconds()}};
    if (seat.deadline) body["deadline"] = seat.deadline_unix_ms;
    send(nullptr, body.dump());
  }
}

void Table::publish_turns() {
  std::array<std::int64_t, kMaxPlayers> deadlines{};
  for (std::size_t s = 0; s < seats_.size(); ++s) deadlines[s] = seats_[s].deadline_unix_ms;
  lobby_.publish_turns(id_, status_ == TableStatus::playing ? waiting_ : 0, deadlines);
}

}  // namespace elgrande::server
