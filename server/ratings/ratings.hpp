#pragma once

#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/player.hpp"
#include "elgrande/competition/rating.hpp"
#include "elgrande/db/ratings.hpp"
#include "elgrande/protocol/codec.hpp"

namespace elgrande::server {

// Every player's current rating on each ladder, in memory, for the ratings shown beside
// names and for "play now". The database is the record: a rated game is rated in the
// transaction that saves its result (rate_game), and comes here once that commits.
// Callable from any thread.
class Ratings {
 public:
  void restore(const std::vector<db::RatingRecord>& stored);
  // Once a rated game's save has committed; an older game than the one a rating last
  // came from (two tables finishing at once) changes nothing.
  void rated(const db::RatedGame& game);

  struct Current {
    competition::Rating rating;
    int games = 0;
  };
  // None for a player never rated on the ladder (or an unknown ladder).
  std::optional<Current> find(PlayerId player, std::string_view ladder) const;
  // {ladder, rating, provisional, games}: what a player shows on the ladder, a newcomer's
  // figures if never rated there.
  protocol::Json shown(PlayerId player, std::string_view ladder) const;

 private:
  struct Entry {
    Current current;
    std::int64_t seq = 0;
  };
  static std::optional<std::int64_t> key(PlayerId player, std::string_view ladder);
  void set(std::int64_t key, Entry entry);  // with the lock held

  mutable std::shared_mutex mutex_;
  std::unordered_map<std::int64_t, Entry> ratings_;  // by key()
};

// The JSON of a rating on a ladder: {ladder, rating, provisional, games}.
protocol::Json rating_json(std::string_view ladder, competition::Rating rating, int games);

}  // namespace elgrande::server
