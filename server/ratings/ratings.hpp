#pragma once

#include <array>
#include <cstdint>
#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
#include <optional>
#include <span>
#include <string>
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
// names, the leaderboards and "play now". The database is the record: a rated game is rated
// in the transaction that saves its result (rate_game), and comes here once that commits.
// Each ladder is kept in order (an order-statistic tree), so that any page of it and any
// player's place are found in logarithmic time. Callable from any thread.
class Ratings {
 public:
  // Over the game's ladders (GameModule::ladders()); a rating on another is not kept.
  explicit Ratings(std::span<const std::string_view> ladders);

  // The game's ladders, in the module's order, and whether `name` is one of them.
  const std::vector<std::string>& ladders() const { return names_; }
  bool is_ladder(std::string_view name) const { return ladder_index(name).has_value(); }

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
  // The shown rating alone (a newcomer's if never rated there): what play now matches and
  // tournaments seed by.
  int displayed(PlayerId player, std::string_view ladder) const;

  // The ladder ranked by mu - 3 sigma, best first (ties by player id): `limit` players from
  // the `offset`-th, its size, and a player's place on it (1 is the best).
  struct Place {
    PlayerId player = 0;
    Current current;
  };
  std::vector<Place> page(std::string_view ladder, std::size_t offset, std::size_t limit) const;
  std::size_t size(std::string_view ladder) const;
  std::optional<std::size_t> rank(PlayerId player, std::string_view ladder) const;

 private:
  struct Entry {
    Current current;
    std::int64_t seq = 0;
  };
  // (-ordinal, player): the best first.
  using Order = __gnu_pbds::tree<std::pair<double, PlayerId>, __gnu_pbds::null_type, std::less<>,
                                 __gnu_pbds::rb_tree_tag, __gnu_pbds::tree_order_statistics_node_update>;
  std::optional<std::size_t> ladder_index(std::string_view ladder) const;
  void set(PlayerId player, std::size_t ladder, Entry entry);  // with the lock held

  mutable std::shared_mutex mutex_;
  std::vector<std::string> names_;
  std::unordered_map<std::int64_t, Entry> ratings_;  // by player * 16 + ladder index
  std::vector<Order> ladders_;  // in names_' order
};

// The JSON of a rating on a ladder: {ladder, rating, provisional, games}.
protocol::Json rating_json(std::string_view ladder, competition::Rating rating, int games);

}  // namespace elgrande::server
