#include "ratings/rating_listener.hpp"

#include <spdlog/spdlog.h>

#include <memory>

#include "elgrande/competition/rating.hpp"
#include "events/bus.hpp"
#include "events/events.hpp"
#include "ratings/rated_game.hpp"
#include "ratings/ratings.hpp"

namespace elgrande::server {
namespace {

using protocol::Json;

// table.rated's payload: each rated player's change, or why the game was not rated.
Json rated_json(TableId table, const std::string& ladder, const RatingOutcome& outcome) {
  if (!outcome.game) {
    return Json{{"table", table}, {"ladder", ladder}, {"changes", Json::array()},
                {"unrated", competition::name(*outcome.unrated)}};
  }
  Json changes = Json::array();
  for (const db::RatingChange& change : outcome.game->changes) {
    const competition::Rating before{change.mu_before, change.sigma_before};
    const competition::Rating after{change.mu, change.sigma};
    changes.push_back({{"player", change.player},
                       {"rank", change.rank},
                       {"before", competition::displayed(before)},
                       {"after", competition::displayed(after)},
                       {"provisional", competition::provisional(after)}});
  }
  return Json{{"table", table}, {"ladder", outcome.game->ladder}, {"changes", std::move(changes)}};
}

}  // namespace

void rate_finished_games(Bus& bus, Ratings& ratings) {
  bus.subscribe<SavingResult>([&ratings](const SavingResult& saving) {
    const GameFinished& finished = saving.game;
    if (!finished.rated) return;
    std::vector<RatedSeat> seats;
    for (const db::SeatResult& r : finished.result.seats) {
      const FinishedSeat& seat = finished.seats.at(static_cast<std::size_t>(r.seat));
      if (r.player) seats.push_back({*r.player, r.score, seat.resigned || seat.replaced, r.seat});
    }
    const TableId table = finished.result.table;
    const std::string ladder = finished.ladder;
    auto outcome = std::make_shared<const RatingOutcome>(
        rate_game(saving.store, table, ladder, finished.result.finished_at, seats));
    saving.after_commit.push_back([&ratings, outcome, table, ladder]() -> std::optional<Announcement> {
      if (outcome->game) {
        ratings.rated(*outcome->game);
        spdlog::info("table {}: rated on ladder {}", table, ladder);
      } else {
        spdlog::info("table {}: not rated ({})", table, competition::name(*outcome->unrated));
      }
      return Announcement{"table.rated", rated_json(table, ladder, *outcome)};
    });
  });
}

}  // namespace elgrande::server
