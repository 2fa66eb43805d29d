#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "elgrande/db/database.hpp"

namespace elgrande::db {

// A player's current rating on one ladder (schema 8).
struct RatingRecord {
  std::int64_t player = 0;
  std::string ladder;
  double mu = 0.0;
  double sigma = 0.0;
  int games = 0;
  std::int64_t last_seq = 0;  // the rated game that set it
  friend bool operator==(const RatingRecord&, const RatingRecord&) = default;
};

// One rated player of a rated game: where they finished among the rated players, and their
// rating before and after.
struct RatingChange {
  std::int64_t player = 0;
  int rank = 1;
  double mu_before = 0.0;
  double sigma_before = 0.0;
  double mu = 0.0;
  double sigma = 0.0;
  friend bool operator==(const RatingChange&, const RatingChange&) = default;
};

struct RatedGame {
  std::int64_t seq = 0;  // 0: the database gives the next
  std::int64_t table = 0;
  std::string ladder;
  std::int64_t rated_at = 0;
  std::vector<RatingChange> changes;
  friend bool operator==(const RatedGame&, const RatedGame&) = default;
};

// A rated game as a player's profile lists it.
struct PlayerRatedGame {
  std::int64_t seq = 0;
  std::int64_t table = 0;
  std::string ladder;
  std::int64_t rated_at = 0;
  RatingChange change;
};

// Ratings in SQLite; part of Store, on the same connection and thread. A rated game is
// recorded in the transaction that saves the game's result, so that neither is ever
// stored without the other.
class RatingStore {
 public:
  explicit RatingStore(Database& database);

  std::optional<RatingRecord> find(std::int64_t player, const std::string& ladder);
  // Adds the game with its changes and sets each player's rating to its "after"; its seq.
  std::int64_t record(const RatedGame& game);
  std::vector<RatingRecord> all();
  // Every rated game, in the order it was rated, its changes in rank order.
  std::vector<RatedGame> games();
  // Replaces every game's changes (matched by seq and player) and every current rating with
  // what replaying `games` gives: the recompute.
  void rewrite(const std::vector<RatedGame>& games);

  // The rated games `a` and `b` played together that were rated at `since` or later.
  int games_together(std::int64_t a, std::int64_t b, std::int64_t since);
  // Whether the table plays a tournament's board (its pairing was the event's, not chosen).
  bool plays_a_board(std::int64_t table);

  // The player's rated games (on one ladder, or all), newest first: those with seq below
  // `before`, at most `limit`.
  std::vector<PlayerRatedGame> player_games(std::int64_t player, const std::optional<std::string>& ladder,
                                            std::optional<std::int64_t> before, int limit);

 private:
  void set_rating(const RatedGame& game, const RatingChange& change, int games);
  Database& database_;
};

}  // namespace elgrande::db
