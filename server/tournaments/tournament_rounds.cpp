// A tournament's course: its start, its rounds and their tables and time limits, the
// boards' results as their games finish, and its end.
#include "tournaments/tournament.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "common/unix_time.hpp"
#include "events/bus.hpp"
#include "events/events.hpp"
#include "identity/identities.hpp"
#include "ratings/ratings.hpp"
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
using protocol::Json;

// A timer that finds storage not taking changes waits this long before it tries again.
constexpr auto kRetryAfterOutage = std::chrono::seconds(5);
// Boards that found no table id at hand try again after this: ids come within a commit.
constexpr auto kTablesAgain = std::chrono::milliseconds(200);

bool has_result(const db::StoredTournament& stored, int round, int board) {
  return std::any_of(stored.results.begin(), stored.results.end(),
                     [&](const db::BoardResult& r) { return r.round == round && r.board == board; });
}

}  // namespace

void Tournament::game_finished(GameFinished finished) {
  post([finished = std::move(finished)](const std::shared_ptr<Tournament>& self) {
    const db::GameResult& result = finished.result;
    const std::vector<FinishedSeat>& seats = finished.seats;
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
            if (!seats[s].replaced || !e || e->status != EntrantStatus::playing) continue;
            e->status = EntrantStatus::withdrawn;
            e->reason = "replaced by a bot after timeouts in round " + std::to_string(round.round);
            self->save_entrant(*e, {});
          }
        }
        self->refresh();
        return self->advance();
      }
    }
  });
}

void Tournament::schedule_start() {
  if (stored_.tournament.status != TournamentStatus::registering || !settings_.starts_at) return;
  const auto at = std::chrono::system_clock::time_point(std::chrono::milliseconds(*settings_.starts_at));
  start_timer_.expires_after(std::max(std::chrono::steady_clock::duration::zero(),
                                      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          at - std::chrono::system_clock::now())));
  start_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec) return;
    self->guarded([&] {
      if (self->broken_ || self->stored_.tournament.status != TournamentStatus::registering) return;
      if (!self->services_.storage.accepting()) {
        // Tried again shortly: a start must not be lost to a passing outage.
        self->start_timer_.expires_after(kRetryAfterOutage);
        return self->start_timer_.async_wait([self](boost::system::error_code again) {
          if (!again) self->schedule_start();
        });
      }
      if (const auto why_not = self->begin()) {
        spdlog::warn("tournament {} could not start at its scheduled time and is cancelled: {}", self->id_, *why_not);
        self->finish(TournamentStatus::cancelled);
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
  const games::GameModule& game = services_.table_factory.game();
  const std::string ladder =
      game.ladder(game.seated(settings_.game.options, settings_.stages.front().sizes.preferred, std::nullopt));
  std::vector<db::EntrantRecord> entrants = stored_.entrants;
  for (db::EntrantRecord& e : entrants) {
    if (e.status != EntrantStatus::registered) continue;
    const bool missed_check_in = settings_.check_in_minutes > 0 && !e.checked_in_at;
    e.status = missed_check_in ? EntrantStatus::removed : EntrantStatus::playing;
    if (missed_check_in) e.reason = "did not check in";
    // Fixed now, with the entrants, so that every round stays a function of stored data.
    if (!missed_check_in && settings_.seed_by_rating && services_.ratings) {
      e.seeding = services_.ratings->displayed(e.player, ladder);
    }
  }
  db::StoredTournament started = stored_;
  started.entrants = entrants;
  if (!competition::next_round(event_of(started, settings_))) {
    const auto players = std::count_if(entrants.begin(), entrants.end(),
                                       [](const db::EntrantRecord& e) { return e.status == EntrantStatus::playing; });
    return std::to_string(players) + " players cannot fill a table of its first stage (at least " +
           std::to_string(settings_.stages.front().sizes.minimum) + ")";
  }
  stored_.entrants = std::move(entrants);
  stored_.tournament.status = TournamentStatus::running;
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
    const TournamentStatus& status = stored_.tournament.status;
    if (status != TournamentStatus::running && status != TournamentStatus::paused) return;
    if (!stored_.rounds.empty() && !stored_.rounds.back().finished_at) {
      if (!event_of(stored_, settings_).rounds.back().finished()) return;
      db::RoundRecord& last = stored_.rounds.back();
      last.finished_at = unix_milliseconds();
      save([id = id_, round = last.round, time = *last.finished_at](db::Store& store) {
        store.tournaments().finish_round(id, round, time);
      }, [self = shared_from_this()] { self->push_update(); });
      spdlog::info("tournament {}: round {} finished", id_, last.round);
    }
    if (status != TournamentStatus::running) return;
    const auto next = competition::next_round(event_of(stored_, settings_));
    if (!next) return finish(TournamentStatus::finished);
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
    // The seat order gives who begins.
    spec.config.options = services_.table_factory.game().seated(settings_.game.options, static_cast<int>(board.seats.size()), 0);
    spec.config.name = stored_.tournament.name + " · R" + std::to_string(round.round) + " B" +
                       std::to_string(board.board);
    spec.host = board.seats.front();
    for (const PlayerId player : board.seats) {
      spec.seats.push_back({TableSpec::SeatSpec::Kind::player,
                            services_.identities.find(player).value_or(Player{player, "Player " + std::to_string(player)})});
    }
    spec.auto_start = true;
    // Saved with the table, in its first transaction: a board gets a table once and only once.
    spec.first_save = [tournament = id_, round = round.round, number = board.board, bus = services_.bus,
                       event_name = stored_.tournament.name, table_name = spec.config.name,
                       players = board.seats](db::Store& store, TableId table) {
      store.tournaments().set_board_table(tournament, round, number, table);
      if (bus) bus->publish(BoardSeated{tournament, event_name, round, table, table_name, players, store});
    };
    // The round is saved before (storage commits in the order asked), so the link finds it.
    const auto made = services_.table_factory.create(
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
    if (!made) {
      tables_timer_.expires_after(kTablesAgain);
      return tables_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
        if (ec || self->stored_.rounds.back().finished_at) return;
        self->create_tables(self->stored_.rounds.back());
        self->refresh();
      });
    }
    board.table = made->id();
    registry_.note_table(made->id(), id_);
  }
}

void Tournament::finish(TournamentStatus status) {
  start_timer_.cancel();
  round_timer_.cancel();
  tables_timer_.cancel();
  stored_.tournament.status = status;
  stored_.tournament.finished_at = unix_milliseconds();
  spdlog::info("tournament {} {}", id_, db::name(status));
  std::vector<std::pair<PlayerId, int>> places;
  if (status == TournamentStatus::finished) {
    for (const competition::Standing& row : competition::event_standings(event_of(stored_, settings_))) {
      places.emplace_back(row.player, row.rank);
    }
  }
  save([id = id_, record = stored_.tournament, bus = services_.bus, places = std::move(places)](db::Store& store) {
    store.tournaments().update(record);
    if (bus && !places.empty()) bus->publish(TournamentEnded{id, record.name, places, store});
  }, [self = shared_from_this()] { self->push_update(); });
}

}  // namespace elgrande::server
