#include "tournaments/tournament.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "common/display_name.hpp"
#include "common/unix_time.hpp"
#include "events/bus.hpp"
#include "events/events.hpp"
#include "identity/identities.hpp"
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

using db::EntrantStatus;
using db::TournamentStatus;
using protocol::ErrorCode;
using protocol::Json;

constexpr std::int64_t kMinuteMs = 60'000;
constexpr std::size_t kMaxDirectorReasonBytes = 200;

}  // namespace

Tournament::Tournament(net::any_io_executor strand, TournamentServices& services, Tournaments& registry,
                       db::StoredTournament stored, TournamentSettings settings)
    : StrandActor(std::move(strand)),
      services_(services),
      registry_(registry),
      id_(stored.tournament.id),
      settings_(std::move(settings)),
      stored_(std::move(stored)),
      start_timer_(strand_),
      round_timer_(strand_),
      tables_timer_(strand_) {
  refresh();
}

// --- Entry points: each hops onto the strand. ---

void Tournament::open(RecipientPtr creator, std::optional<protocol::RequestId> request_id) {
  post([creator = std::move(creator), request_id = std::move(request_id)](const std::shared_ptr<Tournament>& self) {
    const db::TournamentRecord record = self->stored_.tournament;
    self->save([record](db::Store& store) { store.tournaments().insert(record); },
               [self, creator, request_id] {
                 creator->deliver(protocol::reply_message("tournament.create", request_id,
                                                          {{"tournament", self->summary()}}));
                 self->schedule_start();
               });
  });
}

void Tournament::resume() {
  post([](const std::shared_ptr<Tournament>& self) {
    self->schedule_start();
    // Only the last round can lack tables: a round begins once the one before finished.
    if (!self->stored_.rounds.empty() && !self->stored_.rounds.back().finished_at) {
      self->create_tables(self->stored_.rounds.back());
      self->schedule_round_time();
    }
    self->advance();
    self->refresh();
  });
}

void Tournament::handle(Handler handler, TournamentRequest request) {
  post([handler, r = std::move(request)](const std::shared_ptr<Tournament>& self) {
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
}

void Tournament::close() {
  net::post(strand_, [self = shared_from_this()] {
    self->start_timer_.cancel();
    self->round_timer_.cancel();
    self->tables_timer_.cancel();
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
  if (!require_status(r, {TournamentStatus::registering}, "register")) return;
  if (!r.may_enter) return refuse(r, ErrorCode::forbidden, "tournaments are for accounts: sign up first");
  db::EntrantRecord* e = entrant(r.player.id);
  if (e && e->status == EntrantStatus::registered) {
    return refuse(r, ErrorCode::wrong_state, "you are registered already");
  }
  if (e && !e->reason.empty() && e->reason.starts_with("removed")) {
    return refuse(r, ErrorCode::forbidden, "the director removed you from this tournament");
  }
  const auto registered =
      std::count_if(stored_.entrants.begin(), stored_.entrants.end(),
                    [](const db::EntrantRecord& x) { return x.status == EntrantStatus::registered; });
  if (settings_.max_players > 0 && registered >= settings_.max_players) {
    return refuse(r, ErrorCode::limit_reached,
                  "the tournament is full (" + std::to_string(settings_.max_players) + " players)",
                  {{"limit", "max_players"}, {"max", settings_.max_players}});
  }
  if (!e) e = &stored_.entrants.emplace_back();
  *e = db::EntrantRecord{r.player.id, unix_milliseconds(), std::nullopt, EntrantStatus::registered, ""};
  save([id = id_, entrant = *e, bus = services_.bus, name = stored_.tournament.name, starts_at = settings_.starts_at,
        check_in = settings_.check_in_minutes](db::Store& store) {
    store.tournaments().save_entrant(id, entrant);
    if (bus) bus->publish(EntrantRegistered{id, name, starts_at, check_in, entrant.player, store});
  }, [this, r] { reply(r, {{"tournament", summary()}}); });
}

void Tournament::unregister(const TournamentRequest& r) {
  if (!require_status(r, {TournamentStatus::registering}, "unregister")) return;
  db::EntrantRecord* e = entrant(r.player.id);
  if (!e || e->status != EntrantStatus::registered) return refuse(r, ErrorCode::wrong_state, "you are not registered");
  e->status = EntrantStatus::removed;
  e->reason = "unregistered";
  e->checked_in_at.reset();
  save_entrant(*e, [this, r] { reply(r, {{"tournament", summary()}}); });
}

void Tournament::check_in(const TournamentRequest& r) {
  if (!require_status(r, {TournamentStatus::registering}, "check in")) return;
  db::EntrantRecord* e = entrant(r.player.id);
  if (!e || e->status != EntrantStatus::registered) return refuse(r, ErrorCode::wrong_state, "you are not registered");
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
  if (!require_status(r, {TournamentStatus::running, TournamentStatus::paused}, "withdraw from")) return;
  db::EntrantRecord* e = entrant(r.player.id);
  if (!e || e->status != EntrantStatus::playing) return refuse(r, ErrorCode::wrong_state, "you are not playing in it");
  e->status = EntrantStatus::withdrawn;
  e->reason = "withdrew";
  save_entrant(*e, [this, r] { reply(r); });
}

// --- The director's. ---

void Tournament::start(const TournamentRequest& r) {
  if (!require_director(r) || !require_status(r, {TournamentStatus::registering}, "start")) return;
  if (const auto why_not = begin()) return refuse(r, ErrorCode::wrong_state, *why_not);
  when_saved([this, r] { reply(r); });
}

void Tournament::pause(const TournamentRequest& r) {
  if (!require_director(r) || !require_status(r, {TournamentStatus::running}, "pause")) return;
  stored_.tournament.status = TournamentStatus::paused;
  audit(r.player.id, "tournament.pause", 0, "", "");
  save_tournament([this, r] {
    reply(r);
    push_update();
  });
}

void Tournament::resume_play(const TournamentRequest& r) {
  if (!require_director(r) || !require_status(r, {TournamentStatus::paused}, "resume")) return;
  stored_.tournament.status = TournamentStatus::running;
  audit(r.player.id, "tournament.resume", 0, "", "");
  save_tournament([this, r] {
    reply(r);
    push_update();
  });
  advance();
}

void Tournament::remove(const TournamentRequest& r) {
  if (!require_director(r) ||
      !require_status(r, {TournamentStatus::registering, TournamentStatus::running, TournamentStatus::paused},
                      "remove players from")) {
    return;
  }
  auto target = read_target(r);
  if (!target) return;
  db::EntrantRecord& e = *target->entrant;
  if (e.status != EntrantStatus::registered && e.status != EntrantStatus::playing) {
    return refuse(r, ErrorCode::wrong_state, "that player is no longer in the tournament");
  }
  // Before the start the registration ends; after it the player keeps their results and
  // plays no more, as if they had withdrawn.
  e.status = e.status == EntrantStatus::registered ? EntrantStatus::removed : EntrantStatus::withdrawn;
  e.reason = "removed by the director: " + target->reason;
  audit(r.player.id, "tournament.remove", e.player, "", target->reason);
  save_entrant(e, [this, r] { reply(r); });
}

void Tournament::disqualify(const TournamentRequest& r) {
  if (!require_director(r) ||
      !require_status(r, {TournamentStatus::running, TournamentStatus::paused, TournamentStatus::finished},
                      "disqualify players from")) {
    return;
  }
  auto target = read_target(r);
  if (!target) return;
  db::EntrantRecord& e = *target->entrant;
  if (e.status == EntrantStatus::disqualified) {
    return refuse(r, ErrorCode::wrong_state, "that player is disqualified already");
  }
  if (e.status != EntrantStatus::playing && e.status != EntrantStatus::withdrawn) {
    return refuse(r, ErrorCode::wrong_state, "only players of the event can be disqualified");
  }
  e.status = EntrantStatus::disqualified;
  e.reason = target->reason;
  audit(r.player.id, "tournament.disqualify", e.player, "", target->reason);
  save_entrant(e, [this, r] { reply(r); });
}

void Tournament::override_result(const TournamentRequest& r) {
  if (!require_director(r) ||
      !require_status(r, {TournamentStatus::running, TournamentStatus::paused, TournamentStatus::finished},
                      "correct results of")) {
    return;
  }
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
  if (!require_director(r) ||
      !require_status(r, {TournamentStatus::registering, TournamentStatus::running, TournamentStatus::paused},
                      "cancel")) {
    return;
  }
  audit(r.player.id, "tournament.cancel", 0, "", "");
  finish(TournamentStatus::cancelled);
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

void Tournament::refuse(const TournamentRequest& r, ErrorCode code, std::string_view message, const protocol::Json& facts) {
  services_.metrics.count_error(code);
  r.from->deliver(protocol::error_message_with(code, message, r.envelope.id, facts));
}

bool Tournament::require_director(const TournamentRequest& r) {
  if (r.admin || r.player.id == stored_.tournament.director) return true;
  refuse(r, ErrorCode::forbidden, "only the tournament's director (or an admin) may do that");
  return false;
}

bool Tournament::require_status(const TournamentRequest& r, std::initializer_list<TournamentStatus> statuses,
                                std::string_view doing) {
  if (std::find(statuses.begin(), statuses.end(), stored_.tournament.status) != statuses.end()) return true;
  refuse(r, ErrorCode::wrong_state,
         "cannot " + std::string(doing) + " a tournament that is " + std::string(db::name(stored_.tournament.status)));
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
    if (e.status != EntrantStatus::removed) told.push_back(e.player);
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
