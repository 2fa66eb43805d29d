#include "tables/table.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <random>

#include "ai/bot_workers.hpp"
#include "common/unix_time.hpp"
#include "identity/identities.hpp"
#include "ratings/ratings.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

std::uint64_t secret_seed() {
  std::random_device entropy("/dev/urandom");
  return (std::uint64_t{entropy()} << 32) | entropy();
}

TurnKeeper::Limits limits_of(const TableConfig& config, const TableSettings& settings) {
  return TurnKeeper::Limits{std::chrono::seconds(config.turn_seconds), settings.bot_delay, settings.restart_grace};
}

TableConfig config_of(const db::TableRecord& record) {
  return TableConfig{record.name, record.options, record.turn_seconds,
                     on_timeout_from(record.on_timeout).value_or(OnTimeout::bot_answers), record.replace_after,
                     record.rated, record.secrets_closed};
}

TableChat::Shared chat_shared(TableServices& services) {
  return {services.chat_limits, services.sanctions, services.block_lists, services.chat_line_ids};
}

TableConfig named_config(TableConfig config, TableId id) {
  if (config.name.empty()) config.name = "Table " + std::to_string(id);
  return config;
}

}  // namespace

Table::Table(Strand strand, TableServices& services, TableId id, TableSpec spec)
    : StrandActor(std::move(strand)),
      services_(services),
      id_(id),
      config_(named_config(spec.config, id)),
      auto_start_(spec.auto_start),
      first_save_([also = std::move(spec.first_save), bus = services.bus](db::Store& store, TableId table) {
        if (bus) bus->publish(SavingNewTable{table, store});
        if (also) also(store, table);
      }),
      created_at_ms_(unix_milliseconds()),
      seating_(Seating::from(spec, services.game.seats(spec.config.options), services.settings.bot_level)),
      chat_(chat_shared(services)),
      saver_(std::nullopt, 0),
      feed_(services.metrics, services.webhook, services.max_held_messages),
      turns_(strand_, *this, limits_of(config_, services.settings), seating_.size()),
      expiry_timer_(strand_) {}

Table::Table(Strand strand, TableServices& services, db::RestoredTable restored, Seating seating)
    : StrandActor(std::move(strand)),
      services_(services),
      id_(restored.table.id),
      config_(config_of(restored.table)),
      auto_start_(restored.table.auto_start),
      created_at_ms_(restored.table.created_at),
      started_at_ms_(restored.table.started_at),
      finished_at_ms_(restored.table.finished_at),
      status_(table_status_from(restored.table.status).value_or(TableStatus::open)),
      seating_(std::move(seating)),
      result_saved_(status_ == TableStatus::finished),
      chat_(chat_shared(services), std::move(restored.chat)),
      game_(std::move(restored.game)),
      seed_(restored.table.seed.value_or(0)),
      saver_(restored.table, game_ ? game_->version() - static_cast<std::uint32_t>(restored.replayed) : 0),
      feed_(services.metrics, services.webhook, services.max_held_messages),
      turns_(strand_, *this, limits_of(config_, services.settings), seating_.size()),
      expiry_timer_(strand_) {
  for (int s = 0; s < seating_.size() && s < static_cast<int>(restored.table.seats.size()); ++s) {
    if (const auto deadline = restored.table.seats[static_cast<std::size_t>(s)].deadline) turns_.restore(s, *deadline);
  }
  if (game_) {
    waiting_ = game_->owing();
    phase_.store(game_->phase(), std::memory_order_relaxed);
    // When a restored decision was posed is not known: it counts as posed now, and every
    // client hears of this version when it comes back.
    note_decisions(waiting_);
  }
}

// --- Entry points: each hops onto the strand. ---

void Table::open(RecipientPtr creator, std::optional<protocol::RequestId> request_id) {
  post([creator = std::move(creator), request_id = std::move(request_id)](const std::shared_ptr<Table>& self) {
    self->save();
    if (creator) {
      self->feed_.send(creator, protocol::reply_message("table.create", request_id,
                                                        {{"table", self->description()}}));
    }
    self->send_table_update();
    if (self->auto_start_ && self->seating_.full()) self->start_game();
  });
}

void Table::resume() {
  post([](const std::shared_ptr<Table>& self) {
    // Deadlines are wall-clock times; one that passed while the server was down (or is
    // about to) is pushed back, so that the player gets a fair chance to come back.
    self->turns_.resume();
    self->save();
    self->send_table_update();
    if (self->status_ == TableStatus::finished) {
      const auto ends = std::chrono::system_clock::time_point(std::chrono::milliseconds(*self->finished_at_ms_)) +
                        self->services_.settings.finished_lifetime;
      return self->expire(std::chrono::duration_cast<Clock::duration>(ends - std::chrono::system_clock::now()));
    }
    // Saved full but not yet started (a tournament's table, cut off by a restart).
    if (self->status_ == TableStatus::open && self->auto_start_ && self->seating_.full()) return self->start_game();
    if (self->status_ != TableStatus::playing) return;
    self->publish_turns();
    if (self->waiting_bot()) self->turns_.schedule_bot();
    self->turns_.schedule_clock();
  });
}

void Table::handle(Handler handler, TableRequest request, std::string_view /*text*/) {
  post([handler, r = std::move(request)](const std::shared_ptr<Table>& self) {
    if (self->broken_) {
      return self->refuse(r, ErrorCode::internal,
                          "this table stopped on a server error; a restart brings it back as last saved");
    }
    // The server stops: no answer, since the connection closes next and its client asks
    // again wherever it reconnects (a drained process's, docs/scaling.md).
    if (self->shutting_down_) return;
    if (self->closed_) return self->refuse(r, ErrorCode::not_found, "the table is gone");
    // Spectating changes nothing that is saved; everything else waits for a disk that
    // takes changes.
    if (handler != &Table::spectate && handler != &Table::view_again && !self->services_.storage.accepting()) {
      return self->refuse(r, ErrorCode::unavailable,
                          "the server cannot save changes at the moment; nothing changed, try again shortly");
    }
    (self.get()->*handler)(r);
  });
}

void Table::player_connected(RecipientPtr connection, PlayerId player) {
  post([connection = std::move(connection), player](const std::shared_ptr<Table>& self) {
    if (self->closed_ || !self->seating_.member_seat(player)) return;
    self->feed_.connect(player, connection);
    self->send_table_update();  // the player shows as connected again
    self->send_recent_chat(connection, player);
    if (!self->game_) return;
    // A player whose seat a bot took over watches like a spectator.
    const int viewer = self->seating_.seat_of(player).value_or(kSpectator);
    self->feed_.send_view(connection, viewer, self->whole_update(viewer));
    // Back after the end (a connection lost at the last move): the result too.
    if (self->status_ == TableStatus::finished) {
      self->feed_.send(connection, protocol::push_message("game.over", {{"table", self->id_}, {"result", self->result()}}));
      for (const Announcement& said : self->announcements_) {
        self->feed_.send(connection, protocol::push_message(said.type, said.payload));
      }
    }
  });
}

void Table::player_renamed(Player player) {
  post([player = std::move(player)](const std::shared_ptr<Table>& self) {
    if (self->closed_) return;
    const bool seated = self->seating_.rename(player);
    const bool spoke = self->chat_.rename(player);
    if (!seated && !spoke) return;
    if (seated) self->send_table_update();
    self->feed_.send_to_members(self->seating_, protocol::push_message("player.renamed", {{"table", self->id_},
                                                                                         {"player", to_json(player)}}));
  });
}

void Table::connection_closed(const Recipient* connection) {
  post([connection](const std::shared_ptr<Table>& self) {
    self->feed_.disconnect(connection);
    // A player shows as disconnected; a spectator leaves the count.
    if (!self->closed_) self->send_table_update();
  });
}

void Table::call_time() {
  post([](const std::shared_ptr<Table>& self) {
    if (self->closed_ || self->broken_ || self->status_ != TableStatus::playing) return;
    spdlog::info("table {}: time is called; the game ends with the scores as they stand", self->id_);
    self->status_ = TableStatus::finished;
    self->finished_at_ms_ = unix_milliseconds();
    self->waiting_ = 0;
    self->turns_.update(0, std::nullopt);  // no deadline is saved with the end
    self->save();
    self->publish_turns();
    // The views without their decisions, then the result.
    self->send_updates(nullptr);
    self->finish();
  });
}

void Table::close() {
  post([](const std::shared_ptr<Table>& self) {
    self->closed_ = true;
    self->shutting_down_ = true;
    self->turns_.stop();
    self->expiry_timer_.cancel();
  });
}

// --- The game. ---

void Table::start_game(const TableRequest* asked) {
  seed_ = secret_seed();
  games::Started started = services_.game.setup(config_.options, seed_);
  game_ = std::move(started.game);
  status_ = TableStatus::playing;
  started_at_ms_ = unix_milliseconds();
  services_.metrics.games_started.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("table {}: game started ({} seats)", id_, seating_.size());
  const std::uint8_t before = changed(started.step, std::nullopt);
  if (asked) reply(*asked);
  send_table_update();
  announce(started.step.said.get(), before);
}

std::optional<int> Table::waiting_bot() const {
  for (int s = 0; s < seating_.size(); ++s) {
    if (((waiting_ >> s) & 1u) && seating_[s].kind == Seat::Kind::bot && !thinking(s)) return s;
  }
  return std::nullopt;
}

void Table::log(int seat, const games::Move& move, db::Source source) {
  saver_.log(db::LoggedCommand{game_->version(), seat, move.record(), source, unix_milliseconds()});
}

// The bots' choices are logged like anyone's, so their seed needs no saving: it is drawn
// afresh from the secret seed, the game's version and the seat, the same after a restart.
// Through SHA-256, so that nothing of the deal can be told from it: a searching bot decides
// from its view alone.
std::uint64_t Table::bot_seed(int seat) const {
  const db::TokenHash digest =
      hash_token("bot " + std::to_string(seed_) + " " + std::to_string(game_->version()) + " " + std::to_string(seat));
  std::uint64_t seed = 0;
  for (std::size_t i = 0; i < sizeof seed; ++i) seed = (seed << 8) | static_cast<std::uint8_t>(digest[i]);
  return seed;
}

void Table::note_decisions(std::uint8_t posed) {
  for (int s = 0; s < games::kMaxSeats; ++s) {
    if ((posed >> s) & 1u) posed_at_[static_cast<std::size_t>(s)] = game_->version();
  }
}

std::uint8_t Table::changed(const games::Step& step, std::optional<int> actor, bool undone) {
  const std::uint8_t before = waiting_;
  waiting_ = game_->owing();
  note_decisions(step.posed);
  phase_.store(game_->phase(), std::memory_order_relaxed);
  std::uint8_t owing = 0;
  for (int s = 0; s < seating_.size(); ++s) {
    if (seating_[s].kind == Seat::Kind::human) owing |= static_cast<std::uint8_t>(waiting_ & (1u << s));
  }
  turns_.update(owing, undone ? std::nullopt : actor);
  for (int s = 0; s < seating_.size(); ++s) {
    const Seat& seat = seating_[s];
    const bool arose = ((owing >> s) & 1u) && !((before >> s) & 1u);
    if (!arose || !seat.player || std::ranges::count(turn_news_.played, seat.player->id) > 0) continue;
    turn_news_.owing.push_back(seat.player->id);  // never for a move of the player's own (another tab)
  }
  if (game_->over()) {
    status_ = TableStatus::finished;
    finished_at_ms_ = unix_milliseconds();
  }
  save();
  return before;
}

void Table::announce(const games::Said* said, std::uint8_t waiting_before) {
  send_updates(said);
  publish_turns();
  if (status_ == TableStatus::finished) return finish();
  notify_turns(waiting_before);
  if (waiting_bot()) turns_.schedule_bot();
  turns_.schedule_clock();
}

bool Table::may_play() { return services_.storage.accepting(); }

void Table::bot_turn() {
  guarded([&] {
    if (closed_ || broken_ || status_ != TableStatus::playing) return;
    const auto seat = waiting_bot();
    if (!seat) return;
    answer_for(*seat, seating_[*seat].bot_level, db::Source::bot);
  });
}

void Table::time_ran_out(int late) {
  guarded([&] {
    if (closed_ || broken_ || status_ != TableStatus::playing) return;
    if (thinking(late)) {
      // Its answer is being searched for already; the clock goes on for the others.
      turns_.clear(late);
      return turns_.schedule_clock();
    }
    // A decision counts once against the seat, however often its answer had to wait.
    if (timed_out_at_[late] != posed_at_[late]) {
      timed_out_at_[late] = posed_at_[late];
      services_.metrics.timeouts.fetch_add(1, std::memory_order_relaxed);
      const int in_a_row = ++seating_[late].timeouts;
      const bool replace = config_.on_timeout == OnTimeout::replace_seat && in_a_row >= config_.replace_after;
      spdlog::info("table {}: seat {} ran out of time ({} in a row); the server's bot answers{}", id_, late, in_a_row,
                   replace ? " and keeps the seat" : "");
      if (replace) seating_.replace(late, services_.settings.replacement_bot_level);
      save();
      send_table_update();  // the seat's timeouts, or its new bot
    }
    // Its answer is on its way: the clock goes on for the others.
    turns_.clear(late);
    turns_.schedule_clock();
    answer_for(late, services_.settings.replacement_bot_level, db::Source::timeout);
  });
}

void Table::answer_for(int seat, games::BotLevel level, db::Source source) {
  if (level != games::BotLevel::random && services_.bot_workers) {
    const std::uint32_t posed_at = posed_at_[seat];
    auto answered = [self = shared_from_this(), seat, posed_at, source](games::MovePtr move) {
      net::post(self->strand_, [self, seat, posed_at, source, move = std::move(move)] {
        self->answered(seat, posed_at, source, move);
      });
    };
    // The bot sees what its seat sees, nothing more.
    if (services_.bot_workers->think(game_->bot(seat, level, bot_seed(seat)), std::move(answered))) {
      thinking_ = static_cast<std::uint8_t>(thinking_ | (1u << seat));
      return;
    }
    spdlog::warn("table {}: too many bot decisions wait for a thread; seat {} is answered at random", id_, seat);
  }
  play_answer(seat, source, *game_->random_move(seat, bot_seed(seat)));
}

void Table::answered(int seat, std::uint32_t posed_at, db::Source source, const games::MovePtr& move) {
  guarded([&] {
    thinking_ = static_cast<std::uint8_t>(thinking_ & ~(1u << seat));
    if (closed_ || broken_ || status_ != TableStatus::playing) return;
    const bool same_question = ((waiting_ >> seat) & 1u) && posed_at_[seat] == posed_at;
    if (same_question && may_play()) {
      const auto rejection = move ? game_->check(seat, *move) : std::nullopt;
      if (!move || rejection) {
        // A fault of the search, not of the game: the seat is answered at random instead.
        spdlog::error("table {}: seat {}'s search gave no playable answer ({}); it answers at random", id_, seat,
                      rejection ? rejection->reason : "the search failed");
        return answer_for(seat, games::BotLevel::random, source);
      }
      return play_answer(seat, source, *move);
    }
    // The player answered while the bot thought, or the decision changed: it is asked anew.
    // A late seat whose answer cannot be saved now is late still: its clock says so again
    // once changes can be saved.
    if (same_question && source == db::Source::timeout) turns_.expire(seat);
    if (waiting_bot()) turns_.schedule_bot();
    turns_.schedule_clock();
  });
}

void Table::play_answer(int seat, db::Source source, const games::Move& move) {
  auto played = game_->apply(seat, move, true);
  if (const auto* refusal = std::get_if<games::Refusal>(&played)) {
    // The bot draws from the game's own constraints; a refusal is a bug of the game's.
    throw std::logic_error("table " + std::to_string(id_) + ": the game refused its bot: " + refusal->reason);
  }
  log(seat, move, source);
  services_.metrics.bot_commands.fetch_add(1, std::memory_order_relaxed);
  const games::Step& step = std::get<games::Step>(played);
  const std::uint8_t before = changed(step, seat);
  announce(step.said.get(), before);  // re-arms the clock for the others
}

void Table::deadlines_moved() {
  guarded([&] {
    spdlog::info("table {}: turn clocks wait while changes cannot be saved", id_);
    // Saved with the next change; a restart meanwhile grants the same grace anyway.
    publish_turns();
    send_updates(nullptr);
  });
}

void Table::finish() {
  turns_.stop();
  services_.metrics.games_finished.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("table {}: game over, scores {}", id_, result()["scores"].dump());
  feed_.send_to_members(seating_, protocol::push_message("game.over", {{"table", id_}, {"result", result()}}));
  send_table_update();
  expire(services_.settings.finished_lifetime);
}

void Table::expire(Clock::duration after) {
  expiry_timer_.expires_after(after);
  expiry_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (ec || self->closed_) return;
    self->closed_ = true;
    self->services_.directory.remove(self->id_);
  });
}

void Table::stop(std::string_view why) {
  if (!broken_) spdlog::critical("table {}: {}; the table stops until the server restarts", id_, why);
  broken_ = true;
  turns_.stop();
}

// --- Saving. ---

db::TableRecord Table::record() const {
  db::TableRecord record;
  record.id = id_;
  record.name = config_.name;
  record.host = seating_.host();
  record.status = std::string(name(status_));
  record.options = config_.options;
  record.turn_seconds = config_.turn_seconds;
  record.on_timeout = std::string(name(config_.on_timeout));
  record.replace_after = config_.replace_after;
  record.created_at = created_at_ms_;
  if (game_) record.seed = seed_;
  record.started_at = started_at_ms_;
  record.finished_at = finished_at_ms_;
  record.auto_start = auto_start_;
  record.rated = config_.rated.value_or(false);
  record.secrets_closed = config_.secrets_closed;
  for (int s = 0; s < seating_.size(); ++s) {
    const Seat& seat = seating_[s];
    db::SeatRecord stored;
    stored.kind = std::string(name(seat.kind));
    if (seat.player) stored.player = seat.player->id;
    stored.resigned = seat.resigned;
    stored.replaced = seat.replaced;
    stored.timeouts = seat.timeouts;
    if (seat.kind == Seat::Kind::bot) stored.bot_level = std::string(games::name(seat.bot_level));
    if (turns_.has_deadline(s)) stored.deadline = turns_.deadline_unix_ms(s);
    record.seats.push_back(std::move(stored));
  }
  return record;
}

void Table::save() {
  std::optional<db::GameResult> result;
  if (status_ == TableStatus::finished && !result_saved_) {
    std::vector<std::optional<std::int64_t>> players;
    for (const Seat& seat : seating_.seats()) players.push_back(seat.player ? std::optional(seat.player->id) : std::nullopt);
    finishing_ = result = db::result_of(id_, *finished_at_ms_, game_->scores(), players);
  }
  auto work = saver_.changes(record(), game_.get(), std::move(result));
  if (!work) return;
  if (first_save_) {
    work = [changes = std::move(*work), also = std::exchange(first_save_, nullptr), id = id_](db::Store& store) {
      changes(store);
      also(store, id);
    };
  }
  if (services_.bus && (!turn_news_.played.empty() || !turn_news_.owing.empty())) {
    work = [changes = std::move(*work), bus = services_.bus, table = id_, name = config_.name,
            news = std::exchange(turn_news_, {})](db::Store& store) {
      changes(store);
      bus->publish(SavingTurns{table, name, news.played, news.owing, store});
    };
  }
  if (finishing_ && !result_saved_ && services_.bus) {
    // Published in the transaction that saves the result: what a listener does there is
    // never stored without the result, nor the result without it.
    after_result_ = std::make_shared<std::vector<std::function<std::optional<Announcement>()>>>();
    work = [changes = std::move(*work), bus = services_.bus, finished = finished_event(), after = after_result_](
               db::Store& store) {
      changes(store);
      after->clear();  // a transaction tried again starts afresh
      bus->publish(SavingResult{finished, store, *after});
    };
  }
  persist(std::move(*work));
  if (finishing_ && !result_saved_) {
    result_saved_ = true;
    finishing_save_ = feed_.saves();
  }
}

void Table::persist(Storage::Work work) {
  feed_.saving();
  services_.storage.write(id_, std::move(work), [self = shared_from_this(), save = feed_.saves()](bool committed) {
    net::post(self->strand_, [self, save, committed] { self->saved(save, committed); });
  });
}

void Table::saved(std::uint64_t save, bool committed) {
  guarded([&] {
    if (!committed) {
      // The state in memory is ahead of the database and cannot be trusted to become the
      // game's: stop the table. A restart brings it back as last committed.
      stop("a save failed for good");
      feed_.abandon();
      return;
    }
    feed_.committed(save);
    if (finishing_ && save >= finishing_save_) {
      if (!services_.bus) return finishing_.reset();
      const GameFinished finished = finished_event();
      finishing_.reset();
      bool announced = false;
      const auto after_result = std::exchange(after_result_, nullptr);
      for (const auto& then : *after_result) {
        if (auto said = then()) {
          feed_.send_to_members(seating_, protocol::push_message(said->type, said->payload));
          announcements_.push_back(std::move(*said));
          announced = true;
        }
      }
      if (announced) send_table_update();  // new ratings beside the names
      services_.bus->publish(finished);
    }
  });
}

}  // namespace elgrande::server
