#include "tournaments/tournament.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "common/display_name.hpp"
#include "common/unix_time.hpp"
#include "identity/identities.hpp"
#include "ratings/ladders.hpp"
#include "ratings/ratings.hpp"
#include "ops/metrics.hpp"
#include "presence/presence.hpp"
#include "storage/storage.hpp"
#include "tables/directory.hpp"
#include "tables/table.hpp"
#include "tables/table_factory.hpp"
#include "tournaments/tournament_report.hpp"
#include "tournaments/tournaments.hpp"

namespace elgrande::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

constexpr std::int64_t kMinuteMs = 60'000;
constexpr std::size_t kMaxDirectorReasonBytes = 200;
// A timer that finds storage not taking changes waits this long before it tries again.
constexpr auto kRetryAfterOutage = std::chrono::seconds(5);

bool has_result(const db::StoredTournament& stored, int round, int board) {
  return std::any_of(stored.results.begin(), stored.results.end(),
                     [&](const db::BoardResult& r) { return r.round == round && r.board == board; });
}

}  // namespace

Tournament::Tournament(net::any_io_executor strand, TournamentServices& services, Tournaments& registry,
                       db::StoredTournament stored, TournamentSettings settings)
    : strand_(std::move(strand)),
      services_(services),
      registry_(registry),
      id_(stored.tournament.id),
      settings_(std::move(settings)),
      stored_(std::move(stored)),
      start_timer_(strand_),
      round_timer_(strand_) {
  refresh();
}

// --- Entry points: each hops onto the strand. ---

void Tournament::open(RecipientPtr creator, std::optional<protocol::RequestId> request_id) {
  net::post(strand_, [self = shared_from_this(), creator = std::move(creator), request_id = std::move(request_id)] {
    self->guarded([&] {
      const db::TournamentRecord record = self->stored_.tournament;
      self->save([record](db::Store& store) { store.tournaments().insert(record); },
                 [self, creator, request_id] {
                   creator->deliver(protocol::reply_message("tournament.create", request_id,
                                                            {{"tournament", self->summary()}}));
                   self->schedule_start();
                 });
    });
  });
}

void Tournament::resume() {
  net::post(strand_, [self = shared_from_this()] {
    self->guarded([&] {
      self->schedule_start();
      // Only the last round can lack tables: a round begins once the one before finished.
      if (!self->stored_.rounds.empty() && !self->stored_.rounds.back().finished_at) {
        self->create_tables(self->stored_.rounds.back());
        self->schedule_round_time();
      }
      self->advance();
      self->refresh();
    });
  });
}

void Tournament::handle(Handler handler, TournamentRequest request) {
  net::post(strand_, [self = shared_from_this(), handler, r = std::move(request)] {
    self->guarded([&] {
      if (self->broken_) {
        return self->refuse(r, ErrorCode::internal,
                            "this tournament stopped on a server error; a restart brings it back as last saved");
      }
      if (!self->services_.storage.accepting()) {
        return self->refuse(r, ErrorCode::unavailable,
                            "the server cannot save changes at the moment; nothing changed, try again shortly");
      }
      (self.get()->*handler)(r);
    });
  });
}

void Tournament::game_finished(GameFinished finished) {
  net::post(strand_, [self = shared_from_this(), finished = std::move(finished)] {
    const db::GameResult& result = finished.result;
    const std::vector<FinishedSeat>& seats = finished.seats;
    self->guarded([&] {
      if (self->broken_) return;
      for (db::RoundRecord& round : self->stored_.rounds) {
        for (db::BoardRecord& board : round.boards) {
          if (board.table != result.table) continue;
          // A director's override came first: it stands.
          if (has_result(self->stored_, round.round, board.board)) return;
          db::BoardResult played{round.round, board.board, board.seats, {}, {}};
          for (std::size_t s = 0; s < board.seats.size(); ++s) {
            played.scores.push_back(s < result.seats.size() ? result.seats[s].score : 0);
            played.forfeited.push_back(s < seats.size() && (seats[s].resigned || seats[s].replaced));
          }
          self->stored_.results.push_back(std::move(played));
          spdlog::info("tournament {}: round {} board {} (table {}) finished", self->id_, round.round, board.board,
                       result.table);
          if (self->settings_.withdraw_replaced) {
            for (std::size_t s = 0; s < seats.size() && s < board.seats.size(); ++s) {
              db::EntrantRecord* e = self->entrant(board.seats[s]);
              if (!seats[s].replaced || !e || e->status != "playing") continue;
              e->status = "withdrawn";
              e->reason = "replaced by a bot after timeouts in round " + std::to_string(round.round);
              self->save_entrant(*e, {});
            }
          }
          self->refresh();
          return self->advance();
        }
      }
    });
  });
}

void Tournament::close() {
  net::post(strand_, [self = shared_from_this()] {
    self->start_timer_.cancel();
    self->round_timer_.cancel();
  });
}

Json Tournament::summary() const {
  const std::lock_guard lock(snapshot_mutex_);
  return summary_;
}

std::shared_ptr<const Json> Tournament::detail() const {
  const std::lock_guard lock(snapshot_mutex_);
  return detail_;
}

// --- Players' requests. ---

void Tournament::enrol(const TournamentRequest& r) {
  if (!require_status(r, {"registering"}, "register")) return;
  if (!r.may_enter) return refuse(r, ErrorCode::forbidden, "tournaments are for accounts: sign up first");
  db::EntrantRecord* e = entrant(r.player.id);
  if (e && e->status == "registered") return refuse(r, ErrorCode::wrong_state, "you are registered already");
  if (e && !e->reason.empty() && e->reason.starts_with("removed")) {
    return refuse(r, ErrorCode::forbidden, "the director removed you from this tournament");
  }
  const auto registered = std::count_if(stored_.entrants.begin(), stored_.entrants.end(),
                                        [](const db::EntrantRecord& x) { return x.status == "registered"; });
  if (settings_.max_players > 0 && registered >= settings_.max_players) {
    return refuse(r, ErrorCode::limit_reached,
                  "the tournament is full (" + std::to_string(settings_.max_players) + " players)");
  }
  if (!e) e = &stored_.entrants.emplace_back();
  *e = db::EntrantRecord{r.player.id, unix_milliseconds(), std::nullopt, "registered", ""};
  save_entrant(*e, [this, r] { reply(r, {{"tournament", summary()}}); });
}

void Tournament::unregister(const TournamentRequest& r) {
  if (!require_status(r, {"registering"}, "unregister")) return;
  db::EntrantRecord* e = entrant(r.player.id);
  if (!e || e->status != "registered") return refuse(r, ErrorCode::wrong_state, "you are not registered");
  e->status = "removed";
  e->reason = "unregistered";
  e->checked_in_at.reset();
  save_entrant(*e, [this, r] { reply(r, {{"tournament", summary()}}); });
}

void Tournament::check_in(const TournamentRequest& r) {
  if (!require_status(r, {"registering"}, "check in")) return;
  db::EntrantRecord* e = entrant(r.player.id);
  if (!e || e->status != "registered") return refuse(r, ErrorCode::wrong_state, "you are not registered");
  if (settings_.check_in_minutes == 0) return refuse(r, ErrorCode::wrong_state, "this tournament has no check-in");
  const std::int64_t opens = *settings_.starts_at - settings_.check_in_minutes * kMinuteMs;
  if (unix_milliseconds() < opens) {
    return refuse(r, ErrorCode::wrong_state,
                  "check-in opens " + std::to_string(settings_.check_in_minutes) + " minutes before the start");
  }
  if (e->checked_in_at) return reply(r, {{"tournament", summary()}});
  e->checked_in_at = unix_milliseconds();
  save_entrant(*e, [this, r] { reply(r, {{"tournament", summary()}}); });
}

void Tournament::withdraw(const TournamentRequest& r) {
  if (!require_status(r, {"running", "paused"}, "withdraw from")) return;
  db::EntrantRecord* e = entrant(r.player.id);
  if (!e || e->status != "playing") return refuse(r, ErrorCode::wrong_state, "you are not playing in it");
  e->status = "withdrawn";
  e->reason = "withdrew";
  save_entrant(*e, [this, r] { reply(r); });
}

// --- The director's. ---

void Tournament::start(const TournamentRequest& r) {
  if (!require_director(r) || !require_status(r, {"registering"}, "start")) return;
  if (const auto why_not = begin()) return refuse(r, ErrorCode::wrong_state, *why_not);
  when_saved([this, r] { reply(r); });
}

void Tournament::pause(const TournamentRequest& r) {
  if (!require_director(r) || !require_status(r, {"running"}, "pause")) return;
  stored_.tournament.status = "paused";
  audit(r.player.id, "tournament.pause", 0, "", "");
  save_tournament([this, r] {
    reply(r);
    push_update();
  });
}

void Tournament::resume_play(const TournamentRequest& r) {
  if (!require_director(r) || !require_status(r, {"paused"}, "resume")) return;
  stored_.tournament.status = "running";
  audit(r.player.id, "tournament.resume", 0, "", "");
  save_tournament([this, r] {
    reply(r);
    push_update();
  });
  advance();
}

void Tournament::remove(const TournamentRequest& r) {
  if (!require_director(r) || !require_status(r, {"registering", "running", "paused"}, "remove players from")) return;
  auto target = read_target(r);
  if (!target) return;
  db::EntrantRecord& e = *target->entrant;
  if (e.status != "registered" && e.status != "playing") {
    return refuse(r, ErrorCode::wrong_state, "that player is no longer in the tournament");
  }
  // Before the start the registration ends; after it the player keeps their results and
  // plays no more, as if they had withdrawn.
  e.status = e.status == "registered" ? "removed" : "withdrawn";
  e.reason = "removed by the director: " + target->reason;
  audit(r.player.id, "tournament.remove", e.player, "", target->reason);
  save_entrant(e, [this, r] { reply(r); });
}

void Tournament::disqualify(const TournamentRequest& r) {
  if (!require_director(r) || !require_status(r, {"running", "paused", "finished"}, "disqualify players from")) return;
  auto target = read_target(r);
  if (!target) return;
  db::EntrantRecord& e = *target->entrant;
  if (e.status == "disqualified") return refuse(r, ErrorCode::wrong_state, "that player is disqualified already");
  if (e.status != "playing" && e.status != "withdrawn") {
    return refuse(r, ErrorCode::wrong_state, "only players of the event can be disqualified");
  }
  e.status = "disqualified";
  e.reason = target->reason;
  audit(r.player.id, "tournament.disqualify", e.player, "", target->reason);
  save_entrant(e, [this, r] { reply(r); });
}

void Tournament::override_result(const TournamentRequest& r) {
  if (!require_director(r) || !require_status(r, {"running", "paused", "finished"}, "correct results of")) return;
  const Json& payload = r.envelope.payload;
  const auto round_field = payload.find("round");
  const auto board_field = payload.find("board");
  if (round_field == payload.end() || !round_field->is_number_integer() || board_field == payload.end() ||
      !board_field->is_number_integer()) {
    return refuse(r, ErrorCode::bad_payload, "round and board: the board's numbers, from 1");
  }
  const std::int64_t round_number = round_field->get<std::int64_t>();
  const std::int64_t board_number = board_field->get<std::int64_t>();
  if (round_number < 1 || round_number > static_cast<std::int64_t>(stored_.rounds.size())) {
    return refuse(r, ErrorCode::not_found, "no round " + std::to_string(round_number));
  }
  const db::RoundRecord& round = stored_.rounds[static_cast<std::size_t>(round_number - 1)];
  if (board_number < 1 || board_number > static_cast<std::int64_t>(round.boards.size())) {
    return refuse(r, ErrorCode::not_found, "no board " + std::to_string(board_number) + " in that round");
  }
  const db::BoardRecord& board = round.boards[static_cast<std::size_t>(board_number - 1)];
  const std::size_t seats = board.seats.size();
  db::ResultOverride correction;
  correction.round = static_cast<int>(round_number);
  correction.board = static_cast<int>(board_number);
  const auto scores = payload.find("scores");
  if (scores == payload.end() || !scores->is_array() || scores->size() != seats) {
    return refuse(r, ErrorCode::bad_payload, "scores: a final score per seat (" + std::to_string(seats) + ")");
  }
  for (const Json& score : *scores) {
    if (!score.is_number_integer() || score.get<std::int64_t>() < 0 || score.get<std::int64_t>() > 1000) {
      return refuse(r, ErrorCode::bad_payload, "scores: whole numbers from 0 to 1000");
    }
    correction.scores.push_back(score.get<int>());
  }
  correction.forfeited.assign(seats, false);
  if (const auto forfeited = payload.find("forfeited"); forfeited != payload.end()) {
    if (!forfeited->is_array() || forfeited->size() != seats ||
        !std::all_of(forfeited->begin(), forfeited->end(), [](const Json& f) { return f.is_boolean(); })) {
      return refuse(r, ErrorCode::bad_payload, "forfeited: true or false per seat");
    }
    for (std::size_t s = 0; s < seats; ++s) correction.forfeited[s] = (*forfeited)[s].get<bool>();
  }
  const auto reason = payload.find("reason");
  if (reason == payload.end() || !reason->is_string()) {
    return refuse(r, ErrorCode::bad_payload, "reason: required, kept in the audit log");
  }
  if (const auto why_not = why_not_a_name(reason->get<std::string>(), kMaxDirectorReasonBytes)) {
    return refuse(r, ErrorCode::bad_payload, "reason: " + *why_not);
  }
  correction.reason = reason->get<std::string>();
  correction.director = r.player.id;
  correction.time = unix_milliseconds();

  std::erase_if(stored_.results, [&](const db::BoardResult& x) {
    return x.round == correction.round && x.board == correction.board;
  });
  stored_.results.push_back({correction.round, correction.board, board.seats, correction.scores, correction.forfeited});
  std::erase_if(stored_.overrides, [&](const db::ResultOverride& x) {
    return x.round == correction.round && x.board == correction.board;
  });
  stored_.overrides.push_back(correction);
  audit(r.player.id, "tournament.override", 0,
        "round " + std::to_string(correction.round) + " board " + std::to_string(correction.board) + ": " +
            Json(correction.scores).dump(),
        correction.reason);
  save([id = id_, correction](db::Store& store) { store.tournaments().override_result(id, correction); },
       [this, r] { reply(r); });
  advance();
}

void Tournament::cancel(const TournamentRequest& r) {
  if (!require_director(r) || !require_status(r, {"registering", "running", "paused"}, "cancel")) return;
  audit(r.player.id, "tournament.cancel", 0, "", "");
  finish("cancelled");
  when_saved([this, r] { reply(r); });
}

// --- Helpers. ---

void Tournament::stop(std::string_view why) {
  broken_ = true;
  start_timer_.cancel();
  spdlog::critical("tournament {} stopped: {}; it refuses requests until a restart brings it back as last saved", id_,
                   why);
}

void Tournament::reply(const TournamentRequest& r, Json payload) {
  r.from->deliver(protocol::reply_message(r.envelope.type, r.envelope.id, std::move(payload)));
}

void Tournament::refuse(const TournamentRequest& r, ErrorCode code, std::string_view message) {
  services_.metrics.count_error(code);
  r.from->deliver(protocol::error_message(code, message, r.envelope.id));
}

bool Tournament::require_director(const TournamentRequest& r) {
  if (r.admin || r.player.id == stored_.tournament.director) return true;
  refuse(r, ErrorCode::forbidden, "only the tournament's director (or an admin) may do that");
  return false;
}

bool Tournament::require_status(const TournamentRequest& r, std::initializer_list<std::string_view> statuses,
                                std::string_view doing) {
  if (std::find(statuses.begin(), statuses.end(), stored_.tournament.status) != statuses.end()) return true;
  refuse(r, ErrorCode::wrong_state,
         "cannot " + std::string(doing) + " a tournament that is " + stored_.tournament.status);
  return false;
}

db::EntrantRecord* Tournament::entrant(PlayerId player) {
  const auto found = std::find_if(stored_.entrants.begin(), stored_.entrants.end(),
                                  [player](const db::EntrantRecord& e) { return e.player == player; });
  return found == stored_.entrants.end() ? nullptr : &*found;
}

std::optional<Tournament::Target> Tournament::read_target(const TournamentRequest& r) {
  const Json& payload = r.envelope.payload;
  const auto player = payload.find("player");
  if (player == payload.end() || !player->is_number_integer()) {
    refuse(r, ErrorCode::bad_payload, "player: the player's id");
    return std::nullopt;
  }
  const auto reason = payload.find("reason");
  if (reason == payload.end() || !reason->is_string()) {
    refuse(r, ErrorCode::bad_payload, "reason: required, shown to the player and kept in the audit log");
    return std::nullopt;
  }
  if (const auto why_not = why_not_a_name(reason->get<std::string>(), kMaxDirectorReasonBytes)) {
    refuse(r, ErrorCode::bad_payload, "reason: " + *why_not);
    return std::nullopt;
  }
  db::EntrantRecord* e = entrant(player->get<PlayerId>());
  if (!e) {
    refuse(r, ErrorCode::not_found, "player " + std::to_string(player->get<PlayerId>()) + " is not an entrant");
    return std::nullopt;
  }
  return Target{e, reason->get<std::string>()};
}

void Tournament::save(std::function<void(db::Store&)> work, std::function<void()> then) {
  // Its own stream, apart from the tables' ids: the tournament's writes commit in order.
  ++saves_in_flight_;
  services_.storage.write(-id_, std::move(work), [self = shared_from_this(), then = std::move(then)](bool committed) {
    net::post(self->strand_, [self, then, committed] {
      self->guarded([&] {
        --self->saves_in_flight_;
        if (!committed) return self->stop("a save failed for good");
        self->refresh();
        if (then) then();
      });
    });
  });
}

void Tournament::when_saved(std::function<void()> then) {
  save([](db::Store&) {}, std::move(then));  // commits after every write asked before it
}

void Tournament::save_entrant(const db::EntrantRecord& entrant, std::function<void()> then) {
  save([id = id_, entrant](db::Store& store) { store.tournaments().save_entrant(id, entrant); }, std::move(then));
}

void Tournament::save_tournament(std::function<void()> then) {
  save([record = stored_.tournament](db::Store& store) { store.tournaments().update(record); }, std::move(then));
}

void Tournament::audit(PlayerId director, std::string action, PlayerId player, std::string detail,
                       std::string reason) {
  // An action on the whole event concerns no one player: the log names the director.
  db::AuditEntry entry{0, unix_milliseconds(), director, std::move(action), player != 0 ? player : director,
                       "tournament " + std::to_string(id_) + (detail.empty() ? "" : ": " + detail), std::move(reason)};
  save([entry = std::move(entry)](db::Store& store) { store.moderation().audit(entry); });
}

// --- The event's course. ---

void Tournament::schedule_start() {
  if (stored_.tournament.status != "registering" || !settings_.starts_at) return;
  const auto at = std::chrono::system_clock::time_point(std::chrono::milliseconds(*settings_.starts_at));
  start_timer_.expires_after(std::max(std::chrono::steady_clock::duration::zero(),
                                      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          at - std::chrono::system_clock::now())));
  start_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec) return;
    self->guarded([&] {
      if (self->broken_ || self->stored_.tournament.status != "registering") return;
      if (!self->services_.storage.accepting()) {
        // Tried again shortly: a start must not be lost to a passing outage.
        self->start_timer_.expires_after(kRetryAfterOutage);
        return self->start_timer_.async_wait([self](boost::system::error_code again) {
          if (!again) self->schedule_start();
        });
      }
      if (const auto why_not = self->begin()) {
        spdlog::warn("tournament {} could not start at its scheduled time and is cancelled: {}", self->id_, *why_not);
        self->finish("cancelled");
      }
    });
  });
}

void Tournament::schedule_round_time() {
  if (settings_.round_time_seconds == 0 || stored_.rounds.empty() || stored_.rounds.back().finished_at) return;
  const db::RoundRecord& round = stored_.rounds.back();
  const auto ends = std::chrono::system_clock::time_point(std::chrono::milliseconds(round.started_at)) +
                    std::chrono::seconds(settings_.round_time_seconds);
  round_timer_.expires_after(std::max(std::chrono::steady_clock::duration::zero(),
                                      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          ends - std::chrono::system_clock::now())));
  round_timer_.async_wait([self = shared_from_this(), number = round.round](boost::system::error_code ec) {
    if (ec) return;
    self->guarded([&] {
      const auto& rounds = self->stored_.rounds;
      if (self->broken_ || rounds.empty() || rounds.back().round != number || rounds.back().finished_at) return;
      if (!self->services_.storage.accepting()) {
        // The games cannot save their end yet: tried again shortly.
        self->round_timer_.expires_after(kRetryAfterOutage);
        return self->round_timer_.async_wait([self](boost::system::error_code again) {
          if (!again) self->schedule_round_time();
        });
      }
      // Each game still in play ends and reports its result as any game does; a board the
      // director has already decided keeps the director's result.
      int called = 0;
      for (const db::BoardRecord& board : rounds.back().boards) {
        if (!board.table || has_result(self->stored_, number, board.board)) continue;
        if (const auto table = self->services_.tables.find(*board.table)) {
          table->call_time();
          ++called;
        }
      }
      spdlog::info("tournament {}: round {} reached its time limit; time is called at {} tables", self->id_, number,
                   called);
    });
  });
}

std::optional<std::string> Tournament::begin() {
  // The ladder of the first stage's preferred table: the game most of its players will play.
  Options seeded_game = settings_.game.options;
  seeded_game.players = settings_.stages.front().sizes.preferred;
  std::vector<db::EntrantRecord> entrants = stored_.entrants;
  for (db::EntrantRecord& e : entrants) {
    if (e.status != "registered") continue;
    const bool missed_check_in = settings_.check_in_minutes > 0 && !e.checked_in_at;
    e.status = missed_check_in ? "removed" : "playing";
    if (missed_check_in) e.reason = "did not check in";
    // Fixed now, with the entrants, so that every round stays a function of stored data.
    if (!missed_check_in && settings_.seed_by_rating && services_.ratings) {
      e.seeding = services_.ratings->displayed(e.player, ladder_of(seeded_game));
    }
  }
  db::StoredTournament started = stored_;
  started.entrants = entrants;
  if (!competition::next_round(event_of(started, settings_))) {
    const auto players = std::count_if(entrants.begin(), entrants.end(),
                                       [](const db::EntrantRecord& e) { return e.status == "playing"; });
    return std::to_string(players) + " players cannot fill a table of its first stage (at least " +
           std::to_string(settings_.stages.front().sizes.minimum) + ")";
  }
  stored_.entrants = std::move(entrants);
  stored_.tournament.status = "running";
  stored_.tournament.started_at = unix_milliseconds();
  start_timer_.cancel();
  save([id = id_, record = stored_.tournament, entrants = stored_.entrants](db::Store& store) {
    for (const db::EntrantRecord& e : entrants) store.tournaments().save_entrant(id, e);
    store.tournaments().update(record);
  });
  spdlog::info("tournament {} started", id_);
  advance();
  return std::nullopt;
}

void Tournament::advance() {
  for (;;) {
    const std::string& status = stored_.tournament.status;
    if (status != "running" && status != "paused") return;
    if (!stored_.rounds.empty() && !stored_.rounds.back().finished_at) {
      if (!event_of(stored_, settings_).rounds.back().finished()) return;
      db::RoundRecord& last = stored_.rounds.back();
      last.finished_at = unix_milliseconds();
      save([id = id_, round = last.round, time = *last.finished_at](db::Store& store) {
        store.tournaments().finish_round(id, round, time);
      }, [self = shared_from_this()] { self->push_update(); });
      spdlog::info("tournament {}: round {} finished", id_, last.round);
    }
    if (status != "running") return;
    const auto next = competition::next_round(event_of(stored_, settings_));
    if (!next) return finish("finished");
    db::RoundRecord round;
    round.round = static_cast<int>(stored_.rounds.size()) + 1;
    round.stage = next->stage;
    round.started_at = unix_milliseconds();
    for (std::size_t b = 0; b < next->plan.tables.size(); ++b) {
      round.boards.push_back({static_cast<int>(b) + 1, next->plan.tables[b], std::nullopt});
    }
    round.byes = next->plan.byes;
    stored_.rounds.push_back(round);
    save([id = id_, round](db::Store& store) { store.tournaments().start_round(id, round); },
         [self = shared_from_this(), round] {
           for (const PlayerId player : round.byes) {
             self->tell(player, {{"tournament", self->id_}, {"round", round.round}, {"bye", true}});
           }
           self->push_update();
         });
    spdlog::info("tournament {}: round {} begins with {} tables and {} byes", id_, round.round, round.boards.size(),
                 round.byes.size());
    create_tables(stored_.rounds.back());
    schedule_round_time();
    // A round of byes only (a round robin's pool emptied by withdrawals) is over at once.
    if (!stored_.rounds.back().boards.empty()) return;
  }
}

void Tournament::create_tables(db::RoundRecord& round) {
  for (db::BoardRecord& board : round.boards) {
    if (board.table) continue;
    TableSpec spec;
    spec.config = settings_.game;
    spec.config.options.players = static_cast<int>(board.seats.size());
    spec.config.options.first_player = 0;  // the seat order gives who begins
    spec.config.name = stored_.tournament.name + " · R" + std::to_string(round.round) + " B" +
                       std::to_string(board.board);
    spec.host = board.seats.front();
    for (const PlayerId player : board.seats) {
      spec.seats.push_back({TableSpec::SeatSpec::Kind::player,
                            services_.identities.find(player).value_or(Player{player, "Player " + std::to_string(player)})});
    }
    spec.auto_start = true;
    // Saved with the table, in its first transaction: a board gets a table once and only once.
    spec.first_save = [tournament = id_, round = round.round, number = board.board](db::Store& store, TableId table) {
      store.tournaments().set_board_table(tournament, round, number, table);
    };
    // The round is saved before (storage commits in the order asked), so the link finds it.
    const auto table = services_.table_factory.create(
        std::move(spec), std::make_shared<WhenTableSaved>([self = shared_from_this(), round = round.round,
                                                           number = board.board] {
          net::post(self->strand_, [self, round, number] {
            const db::BoardRecord& saved = self->stored_.rounds.at(static_cast<std::size_t>(round - 1))
                                               .boards.at(static_cast<std::size_t>(number - 1));
            for (std::size_t s = 0; s < saved.seats.size(); ++s) {
              self->tell(saved.seats[s], {{"tournament", self->id_}, {"round", round}, {"board", number},
                                          {"table", *saved.table}, {"seat", s}});
            }
          });
        }));
    board.table = table->id();
    registry_.note_table(table->id(), id_);
  }
}

void Tournament::finish(std::string status) {
  start_timer_.cancel();
  round_timer_.cancel();
  stored_.tournament.status = std::move(status);
  stored_.tournament.finished_at = unix_milliseconds();
  spdlog::info("tournament {} {}", id_, stored_.tournament.status);
  save_tournament([self = shared_from_this()] { self->push_update(); });
}

// --- What readers see and players are told. ---

void Tournament::refresh() {
  const Identities& identities = services_.identities;
  const NameOf name_of = [&identities](std::int64_t id) {
    const auto player = identities.find(id);
    return player ? player->name : "Player " + std::to_string(id);
  };
  Json summary = tournament_summary(stored_, settings_, name_of);
  {
    const std::lock_guard lock(snapshot_mutex_);
    summary_ = std::move(summary);
  }
  // The detail (standings and all) only once the saves asked for are in: a burst of
  // registrations or results builds it once, not once per change.
  if (saves_in_flight_ > 0) return;
  auto detail = std::make_shared<const Json>(tournament_detail(stored_, settings_, name_of));
  const std::lock_guard lock(snapshot_mutex_);
  detail_ = std::move(detail);
}

void Tournament::push_update() {
  const auto message = std::make_shared<const std::string>(protocol::push_message("tournament.update",
                                                                                  {{"tournament", summary()}}));
  std::vector<PlayerId> told{stored_.tournament.director};
  for (const db::EntrantRecord& e : stored_.entrants) {
    if (e.status != "removed") told.push_back(e.player);
  }
  std::sort(told.begin(), told.end());
  told.erase(std::unique(told.begin(), told.end()), told.end());
  for (const PlayerId player : told) {
    for (const auto& connection : services_.presence.connections_of(player)) connection->deliver(message);
  }
}

void Tournament::tell(PlayerId player, Json payload) {
  const auto connections = services_.presence.connections_of(player);
  if (connections.empty()) return;
  const auto message = std::make_shared<const std::string>(protocol::push_message("tournament.round", std::move(payload)));
  for (const auto& connection : connections) connection->deliver(message);
}

}  // namespace elgrande::server
