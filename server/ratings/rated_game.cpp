#include "ratings/rated_game.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <variant>

#include "elgrande/protocol/codec.hpp"

namespace elgrande::server {

std::vector<db::RatingChange> rating_changes(std::span<const RatedSeat> seats,
                                             std::span<const competition::Rating> before) {
  competition::TableResult table;
  for (const RatedSeat& seat : seats) {
    table.seats.push_back(seat.player);
    table.scores.push_back(seat.score);
    table.forfeited.push_back(seat.forfeited);
  }
  const std::vector<int> ranks = competition::rating_ranks(table);
  const std::vector<competition::Rating> after = competition::rate(before, ranks);
  std::vector<db::RatingChange> changes;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    changes.push_back({seats[i].player, ranks[i], before[i].mu, before[i].sigma, after[i].mu, after[i].sigma});
  }
  return changes;
}

namespace {

// Whether a logged move takes back the seat's last one: an undo is no decision of the player's.
bool takes_back(const db::LoggedCommand& logged) {
  const auto json = protocol::parse_json(logged.move);
  const auto command = json ? protocol::command_from_json(json.value()) : protocol::Decoded<Command>(json.error());
  if (!command) throw std::runtime_error("command " + std::to_string(logged.seq) + ": " + command.error().message);
  return std::holds_alternative<Undo>(command.value());
}

}  // namespace

RatingOutcome rate_game(db::Store& store, TableId table, const std::string& ladder, db::UnixMillis finished_at,
                        const std::vector<RatedSeat>& seats, const competition::RatingGuard& guard) {
  std::vector<RatedSeat> rated;
  for (const RatedSeat& seat : seats) {
    if (store.accounts().has_account(seat.player)) rated.push_back(seat);  // guests are never rated
  }
  // The facts the guard weighs: each rated player's own answers (the log says who answered:
  // a bot or the clock for a late seat is not the player), and how often each pair met today.
  std::vector<int> decisions(rated.size(), 0);
  int most_together = 0;
  if (rated.size() >= 2) {
    for (const db::LoggedCommand& command : store.commands(table)) {
      if (command.source != db::Source::player || takes_back(command)) continue;
      for (std::size_t i = 0; i < rated.size(); ++i) decisions[i] += rated[i].seat == command.seat;
    }
    constexpr db::UnixMillis kDay = 24LL * 3600 * 1000;
    for (std::size_t i = 0; i < rated.size(); ++i) {
      for (std::size_t j = i + 1; j < rated.size(); ++j) {
        most_together = std::max(
            most_together, store.ratings().games_together(rated[i].player, rated[j].player, finished_at - kDay));
      }
    }
  }
  const competition::RatingFacts facts{.decisions = decisions,
                                       .most_games_of_a_pair_today = most_together,
                                       .tournament_board = rated.size() >= 2 && store.ratings().plays_a_board(table)};
  if (const auto unrated = competition::why_unrated(facts, guard)) return {std::nullopt, unrated};
  std::vector<competition::Rating> before;
  for (const RatedSeat& seat : rated) {
    const std::optional<db::RatingRecord> now = store.ratings().find(seat.player, ladder);
    before.push_back(now ? competition::Rating{now->mu, now->sigma} : competition::RatingModel{}.newcomer());
  }
  db::RatedGame game{0, table, ladder, finished_at, rating_changes(rated, before)};
  game.seq = store.ratings().record(game);
  return {std::move(game), std::nullopt};
}

namespace {

double change_difference(const db::RatingChange& a, const db::RatingChange& b) {
  return std::max({std::abs(a.mu_before - b.mu_before), std::abs(a.sigma_before - b.sigma_before),
                   std::abs(a.mu - b.mu), std::abs(a.sigma - b.sigma)});
}

}  // namespace

RecomputeReport recompute_ratings(db::Store& store, bool write) {
  RecomputeReport report;
  std::map<std::pair<PlayerId, std::string>, db::RatingRecord> current;
  std::vector<db::RatedGame> replayed;
  for (const db::RatedGame& stored : store.ratings().games()) {
    const std::optional<db::FinishedGame> finished = store.finished_game(stored.table);
    if (!finished) throw std::runtime_error("rated game " + std::to_string(stored.seq) + ": table " +
                                            std::to_string(stored.table) + " is not a finished game");
    // The players rated then, in seat order, as the game's result rows and seats have them.
    std::vector<RatedSeat> seats;
    std::vector<competition::Rating> before;
    for (const db::SeatResult& result : finished->results) {
      const bool was_rated = result.player && std::ranges::any_of(stored.changes, [&](const db::RatingChange& c) {
                               return c.player == *result.player;
                             });
      if (!was_rated) continue;
      const db::SeatRecord& seat = finished->table.seats.at(static_cast<std::size_t>(result.seat));
      seats.push_back({*result.player, result.score, seat.resigned || seat.replaced});
      const auto found = current.find({*result.player, stored.ladder});
      before.push_back(found == current.end() ? competition::RatingModel{}.newcomer()
                                              : competition::Rating{found->second.mu, found->second.sigma});
    }
    db::RatedGame game = stored;
    game.changes = rating_changes(seats, before);
    for (const db::RatingChange& change : game.changes) {
      db::RatingRecord& rating = current[{change.player, game.ladder}];
      rating = {change.player, game.ladder, change.mu, change.sigma, rating.games + 1, game.seq};
      const auto was = std::ranges::find(stored.changes, change.player, &db::RatingChange::player);
      if (was == stored.changes.end() || *was != change) ++report.changes_differing;
      if (was != stored.changes.end()) report.largest_difference = std::max(report.largest_difference, change_difference(*was, change));
    }
    if (game.changes.size() != stored.changes.size()) ++report.changes_differing;
    report.changes += game.changes.size();
    ++report.games;
    replayed.push_back(std::move(game));
  }
  std::map<std::pair<PlayerId, std::string>, db::RatingRecord> stored_ratings;
  for (db::RatingRecord& rating : store.ratings().all()) stored_ratings[{rating.player, rating.ladder}] = rating;
  report.ratings = current.size();
  for (const auto& [key, rating] : current) {
    const auto found = stored_ratings.find(key);
    if (found == stored_ratings.end() || found->second != rating) ++report.ratings_differing;
  }
  for (const auto& [key, rating] : stored_ratings) report.ratings_differing += !current.contains(key);
  if (write) store.ratings().rewrite(replayed);
  return report;
}

}  // namespace elgrande::server
