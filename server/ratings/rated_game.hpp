#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/player.hpp"
#include "elgrande/competition/rating.hpp"
#include "elgrande/competition/rating_guard.hpp"
#include "elgrande/db/store.hpp"

namespace elgrande::server {

// A seat of a finished game that had a player, as rating sees it.
struct RatedSeat {
  PlayerId player = 0;
  int score = 0;
  bool forfeited = false;  // resigned, or replaced by a bot after timeouts: ranks last
  int seat = 0;
};

// What a game played out at a rated table did to ratings: the rated game, or why none.
struct RatingOutcome {
  std::optional<db::RatedGame> game;
  std::optional<competition::Unrated> unrated;
};

// How one game moves its rated players (in the order of `seats`, with their ratings
// `before`): their ranks among themselves, then the Weng-Lin update. Live rating and the
// recompute both come here, so that they cannot disagree.
std::vector<db::RatingChange> rating_changes(std::span<const RatedSeat> seats,
                                             std::span<const competition::Rating> before);

// Rates a finished game in the transaction that saves its result, on the storage thread:
// of `seats`, the players with an account, from their ratings in the database, unless the
// rating guard says the game does not count (fewer than two accounts, an aborted game, a
// pairing repeated too often today: docs/ratings.md#what-is-rated).
RatingOutcome rate_game(db::Store& store, TableId table, const std::string& ladder, db::UnixMillis finished_at,
                        const std::vector<RatedSeat>& seats, const competition::RatingGuard& guard = {});

// `elgrande-server --recompute-ratings`: replays every rated game in the order it was
// rated, from newcomers' ratings, with today's rating code, and compares with what is
// stored. With `write`, the stored changes and ratings become the replayed ones.
struct RecomputeReport {
  std::size_t games = 0;
  std::size_t changes = 0;
  std::size_t changes_differing = 0;   // rank, or mu or sigma before or after, not equal to the last bit
  std::size_t ratings = 0;
  std::size_t ratings_differing = 0;   // current ratings (and game counts)
  double largest_difference = 0.0;     // in mu or sigma
};
RecomputeReport recompute_ratings(db::Store& store, bool write);

}  // namespace elgrande::server
