#include "table.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <random>
#include <unordered_map>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/view.hpp"
#include "ws_session.hpp"

namespace elgrande::server {
namespace {

namespace protocol = elgrande::protocol;
using protocol::ErrorCode;
using protocol::Json;

constexpr std::size_t kMaxChatBytes = 500;

std::int64_t unix_milliseconds(std::chrono::system_clock::time_point when) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count();
}

std::uint64_t secret_seed() {
  std::random_device entropy("/dev/urandom");
  return (std::uint64_t{entropy()} << 32) | entropy();
}

std::string_view kind_name(int kind) {
  static constexpr std::array<std::string_view, 3> kNames{"empty", "human", "bot"};
  return kNames[static_cast<std::size_t>(kind)];
}

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

Table::Table(net::any_io_executor executor, Lobby& lobby, TableId id, std::string name,
             Player host, Options options, int turn_seconds)
    : strand_(std::move(executor)),
      lobby_(lobby),
      id_(id),
      name_(std::move(name)),
      host_(host.id),
      options_(options),
      turn_seconds_(turn_seconds),
      seats_(static_cast<std::size_t>(options.players)),
      bot_timer_(strand_),
      clock_timer_(strand_),
      expiry_timer_(strand_) {
  seats_[0].kind = Seat::Kind::human;
  seats_[0].player = std::move(host);
}

// --- Entry points: each hops onto the strand. ---

void Table::open(std::shared_ptr<WsSession> host_session,
                 std::optional<protocol::RequestId> request_id) {
  net::post(strand_, [self = shared_from_this(), host_session = std::move(host_session),
                      request_id = std::move(request_id)] {
    self->lobby_.seated(self->host_, self->id_);
    host_session->deliver(protocol::reply_message("table.create", request_id,
                                                  {{"table", self->description()}}));
    self->send_table_update();
  });
}

void Table::handle(std::shared_ptr<WsSession> session, Player player, protocol::Envelope request,
                   Clock::time_point received) {
  net::post(strand_, [self = shared_from_this(),
                      r = Request{std::move(session), std::move(player), std::move(request)},
                      received] {
    using Handler = void (Table::*)(const Request&);
    static const std::unordered_map<std::string_view, Handler> kHandlers{
        {"table.join", &Table::join},          {"table.seat", &Table::choose_seat},
        {"table.leave", &Table::leave},        {"table.add_bot", &Table::add_bot},
        {"table.remove_bot", &Table::remove_bot}, {"table.start", &Table::start},
        {"table.spectate", &Table::spectate},  {"table.chat", &Table::chat},
        {"game.resign", &Table::resign},
    };
    if (self->closed_) return self->refuse(r, ErrorCode::not_found, "the table is gone");
    if (r.envelope.type == "game.command") return self->command(r, received);
    const auto found = kHandlers.find(r.envelope.type);
    if (found == kHandlers.end()) {
      return self->refuse(r, ErrorCode::unknown_type, "unknown message type");
    }
    (self.get()->*found->second)(r);
  });
}

void Table::player_connected(std::shared_ptr<WsSession> session, PlayerId player) {
  net::post(strand_, [self = shared_from_this(), session = std::move(session), player] {
    if (self->closed_) return;
    self->send_table_update();  // the player shows as connected again
    const auto seat = self->seat_of(player);
    if (seat && self->game_) {
      session->deliver(self->game_update(*seat, {}));
    }
  });
}

void Table::player_disconnected(PlayerId /*player*/) {
  net::post(strand_, [self = shared_from_this()] {
    if (!self->closed_) self->send_table_update();
  });
}

void Table::spectator_left(const WsSession* session) {
  net::post(strand_, [self = shared_from_this(), session] {
    const auto before = self->spectators_.size();
    std::erase_if(self->spectators_, [&](const std::weak_ptr<WsSession>& weak) {
      const auto alive = weak.lock();
      return !alive || alive.get() == session;
    });
    if (!self->closed_ && self->spectators_.size() != before) self->send_table_update();
  });
}

void Table::close() {
  net::post(strand_, [self = shared_from_this()] {
    self->closed_ = true;
    self->bot_timer_.cancel();
    self->clock_timer_.cancel();
    self->expiry_timer_.cancel();
  });
}

// --- Lobby requests. ---

void Table::join(const Request& r) {
  if (const auto mine = seat_of(r.player.id)) {
    return refuse(r, ErrorCode::wrong_state, "you already sit at seat " + std::to_string(*mine));
  }
  if (!require_status(r, TableStatus::open, "join")) return;
  std::optional<int> seat;
  if (!read_seat(r, false, seat)) return;
  if (seat) {
    if (seats_[*seat].kind != Seat::Kind::empty) {
      return refuse(r, ErrorCode::seat_taken, "seat " + std::to_string(*seat) + " is taken");
    }
  } else {
    seat = first_empty_seat();
    if (!seat) return refuse(r, ErrorCode::table_full, "every seat is taken");
  }
  seats_[*seat] = Seat{};
  seats_[*seat].kind = Seat::Kind::human;
  seats_[*seat].player = r.player;
  std::erase_if(spectators_, [&](const auto& weak) { return weak.lock() == r.session; });
  lobby_.seated(r.player.id, id_);
  reply(r, {{"table", description()}, {"seat", *seat}});
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
    reply(r);
    const bool anyone_left = std::any_of(seats_.begin(), seats_.end(), [](const Seat& seat) {
      return seat.kind == Seat::Kind::human;
    });
    if (status_ == TableStatus::open && !anyone_left) {
      // Bots alone do not keep a table that has not started.
      closed_ = true;
      lobby_.remove_table(id_);
      return;
    }
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
  if (!read_seat(r, false, seat)) return;
  if (seat) {
    if (seats_[*seat].kind != Seat::Kind::empty) {
      return refuse(r, ErrorCode::seat_taken, "seat " + std::to_string(*seat) + " is taken");
    }
  } else {
    seat = first_empty_seat();
    if (!seat) return refuse(r, ErrorCode::table_full, "every seat is taken");
  }
  seats_[*seat].kind = Seat::Kind::bot;
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
  bots_ = Rng{seed_ ^ 0xB07B07B07B07B07Bull};  // the bots' draws are logged as commands
  Events events;
  game_ = new_game(options_, seed_, &events);
  status_ = TableStatus::playing;
  lobby_.metrics().games_started.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("table {}: game started ({} seats)", id_, seats_.size());
  reply(r);
  send_table_update();
  after_change(events, std::nullopt);
}

void Table::spectate(const Request& r) {
  if (seat_of(r.player.id)) return refuse(r, ErrorCode::wrong_state, "you sit at this table");
  const bool watching = std::any_of(spectators_.begin(), spectators_.end(),
                                    [&](const auto& weak) { return weak.lock() == r.session; });
  if (!watching) spectators_.push_back(r.session);
  reply(r, {{"table", description()}});
  if (game_) r.session->deliver(game_update(kSpectator, {}));
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
  Json message = {{"table", id_},
                  {"from", to_json(r.player)},
                  {"text", *text},
                  {"time", unix_milliseconds(std::chrono::system_clock::now())}};
  if (seat) message["seat"] = *seat;
  reply(r);
  send_to_members(protocol::push_message("table.chat", std::move(message)));
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
  log_.push_back(RecordedCommand{static_cast<elgrande::Seat>(*seat), std::move(decoded.value())});
  lobby_.metrics().commands.fetch_add(1, std::memory_order_relaxed);
  reply(r, {{"version", game_->version}});
  after_change(events, *seat);
  lobby_.metrics().command_latency.observe(Clock::now() - received);
}

void Table::resign(const Request& r) {
  if (status_ != TableStatus::playing) {
    return refuse(r, ErrorCode::wrong_state, "only a game in progress can be resigned");
  }
  const auto seat = seat_of(r.player.id);
  if (!seat) return refuse(r, ErrorCode::wrong_state, "you do not play at this table");
  Seat& resigned = seats_[*seat];
  resigned.kind = Seat::Kind::bot;
  resigned.resigned = true;
  resigned.deadline.reset();
  lobby_.unseated(r.player.id, id_);
  spdlog::info("table {}: seat {} resigned; a bot plays it", id_, *seat);
  reply(r);
  send_table_update();
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
  r.session->deliver(protocol::reply_message(r.envelope.type, r.envelope.id, std::move(payload)));
}

void Table::refuse(const Request& r, ErrorCode code, std::string_view message,
                   std::string_view reason) {
  lobby_.metrics().count_error(code);
  r.session->deliver(protocol::error_message(code, message, r.envelope.id, reason));
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

// --- The game. ---

void Table::play(int seat, const Command& command, Events& events) {
  if (const auto rejection = apply(*game_, seat, command, events)) {
    // The bot draws from the engine's own constraints; a refusal is an engine bug.
    throw InvariantBroken("table " + std::to_string(id_) + ": the engine refused its bot: " +
                          rejection->reason);
  }
  log_.push_back(RecordedCommand{static_cast<elgrande::Seat>(seat), command});
  lobby_.metrics().bot_commands.fetch_add(1, std::memory_order_relaxed);
}

void Table::after_change(const Events& events, std::optional<int> actor) {
  phase_.store(game_->phase, std::memory_order_relaxed);
  update_deadlines(actor);
  send_game_updates(events);
  if (is_over(*game_)) return finish();
  schedule_bot();
  schedule_clock();
}

void Table::update_deadlines(std::optional<int> actor) {
  if (turn_seconds_ == 0) return;
  const std::uint8_t waiting = waiting_for(*game_);
  const auto limit = std::chrono::seconds(turn_seconds_);
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    Seat& seat = seats_[s];
    const bool owes = (waiting >> s) & 1u;
    if (!owes || seat.kind != Seat::Kind::human) {
      seat.deadline.reset();
    } else if (!seat.deadline || actor == static_cast<int>(s)) {
      // A new decision gets the full time; one still open keeps its deadline.
      seat.deadline = Clock::now() + limit;
      seat.deadline_unix_ms = unix_milliseconds(std::chrono::system_clock::now() + limit);
    }
  }
}

std::optional<int> Table::waiting_bot() const {
  const std::uint8_t waiting = waiting_for(*game_);
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (((waiting >> s) & 1u) && seats_[s].kind == Seat::Kind::bot) return static_cast<int>(s);
  }
  return std::nullopt;
}

void Table::schedule_bot() {
  if (bot_scheduled_ || closed_ || !game_ || is_over(*game_) || !waiting_bot()) return;
  bot_scheduled_ = true;
  bot_timer_.expires_after(lobby_.settings().bot_delay);
  bot_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    self->bot_scheduled_ = false;
    if (ec || self->closed_ || is_over(*self->game_)) return;
    const auto seat = self->waiting_bot();
    if (!seat) return;
    Events events;
    self->play(*seat, random_command(*self->game_, *seat, self->bots_), events);
    self->after_change(events, *seat);
  });
}

void Table::schedule_clock() {
  if (turn_seconds_ == 0 || closed_) return;
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
    if (ec || generation != self->clock_generation_ || self->closed_) return;
    if (is_over(*self->game_)) return;
    const auto now = Clock::now();
    for (std::size_t s = 0; s < self->seats_.size(); ++s) {
      const Seat& seat = self->seats_[s];
      if (!seat.deadline || *seat.deadline > now) continue;
      const int late = static_cast<int>(s);
      spdlog::info("table {}: seat {} ran out of time; the server's bot answers", self->id_, late);
      self->lobby_.metrics().timeouts.fetch_add(1, std::memory_order_relaxed);
      Events events;
      self->play(late, random_command(*self->game_, late, self->bots_), events);
      return self->after_change(events, late);  // re-arms the clock for the others
    }
    self->schedule_clock();
  });
}

void Table::finish() {
  status_ = TableStatus::finished;
  bot_timer_.cancel();
  clock_timer_.cancel();
  lobby_.metrics().games_finished.fetch_add(1, std::memory_order_relaxed);
  const Json summary = protocol::summary_json(*game_);
  spdlog::info("table {}: game over, scores {}", id_, summary["scores"].dump());
  send_to_members(protocol::push_message("game.over", {{"table", id_}, {"result", result()}}));
  send_table_update();
  expiry_timer_.expires_after(lobby_.settings().finished_lifetime);
  expiry_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (ec || self->closed_) return;
    self->closed_ = true;
    self->lobby_.remove_table(self->id_);
  });
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
    Json entry = {{"seat", s}, {"kind", kind_name(static_cast<int>(seat.kind))}};
    if (seat.player) entry["player"] = to_json(*seat.player);
    if (seat.kind == Seat::Kind::human) entry["connected"] = lobby_.connected(seat.player->id);
    if (seat.resigned) entry["resigned"] = true;
    seats.push_back(std::move(entry));
  }
  const auto watching = std::count_if(spectators_.begin(), spectators_.end(),
                                      [](const auto& weak) { return !weak.expired(); });
  Json table = {{"id", id_},
                {"name", name_},
                {"host", host_},
                {"status", name(status_)},
                {"options", protocol::to_json(options_)},
                {"turn_seconds", turn_seconds_},
                {"seats", std::move(seats)},
                {"spectators", watching}};
  if (status_ == TableStatus::finished) table["result"] = result();
  return table;
}

std::string Table::game_update(int viewer, const Events& events) const {
  Json shown = Json::array();
  for (const Event& event : visible_to(events, viewer)) {
    shown.push_back(protocol::to_json(event, options_));
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
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (seats_[s].kind != Seat::Kind::human) continue;
    const auto sessions = lobby_.sessions_of(seats_[s].player->id);
    if (sessions.empty()) continue;  // nobody to serialise it for
    const auto message =
        std::make_shared<const std::string>(game_update(static_cast<int>(s), events));
    for (const auto& session : sessions) session->deliver(message);
  }
  std::vector<std::shared_ptr<WsSession>> watching;
  for (const auto& weak : spectators_) {
    if (auto session = weak.lock()) watching.push_back(std::move(session));
  }
  if (watching.empty()) return;
  const auto message = std::make_shared<const std::string>(game_update(kSpectator, events));
  for (const auto& session : watching) session->deliver(message);
}

void Table::send_to_members(const std::string& text) {
  const auto message = std::make_shared<const std::string>(text);
  for (const Seat& seat : seats_) {
    if (seat.kind != Seat::Kind::human) continue;
    for (const auto& session : lobby_.sessions_of(seat.player->id)) session->deliver(message);
  }
  std::erase_if(spectators_, [](const auto& weak) { return weak.expired(); });
  for (const auto& weak : spectators_) {
    if (auto session = weak.lock()) session->deliver(message);
  }
}

}  // namespace elgrande::server
