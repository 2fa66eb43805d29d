#include "ratings/ratings.hpp"

#include <algorithm>
#include <mutex>

#include "ratings/ladders.hpp"

namespace elgrande::server {

std::optional<std::int64_t> Ratings::key(PlayerId player, std::string_view ladder) {
  const auto found = std::ranges::find(kLadders, ladder);
  if (found == kLadders.end()) return std::nullopt;
  return player * 16 + (found - kLadders.begin());
}

void Ratings::set(std::int64_t key, Entry entry) {
  auto [at, inserted] = ratings_.try_emplace(key, entry);
  if (!inserted && at->second.seq < entry.seq) at->second = entry;
}

void Ratings::restore(const std::vector<db::RatingRecord>& stored) {
  std::unique_lock lock(mutex_);
  for (const db::RatingRecord& r : stored) {
    if (const auto k = key(r.player, r.ladder)) set(*k, {{{r.mu, r.sigma}, r.games}, r.last_seq});
  }
}

void Ratings::rated(const db::RatedGame& game) {
  std::unique_lock lock(mutex_);
  for (const db::RatingChange& change : game.changes) {
    const auto k = key(change.player, game.ladder);
    if (!k) continue;
    const auto was = ratings_.find(*k);
    const int games = was == ratings_.end() ? 1 : was->second.current.games + 1;
    set(*k, {{{change.mu, change.sigma}, games}, game.seq});
  }
}

std::optional<Ratings::Current> Ratings::find(PlayerId player, std::string_view ladder) const {
  const auto k = key(player, ladder);
  if (!k) return std::nullopt;
  std::shared_lock lock(mutex_);
  const auto found = ratings_.find(*k);
  if (found == ratings_.end()) return std::nullopt;
  return found->second.current;
}

protocol::Json Ratings::shown(PlayerId player, std::string_view ladder) const {
  const std::optional<Current> current = find(player, ladder);
  return current ? rating_json(ladder, current->rating, current->games)
                 : rating_json(ladder, competition::RatingModel{}.newcomer(), 0);
}

protocol::Json rating_json(std::string_view ladder, competition::Rating rating, int games) {
  return {{"ladder", ladder},
          {"rating", competition::displayed(rating)},
          {"provisional", competition::provisional(rating)},
          {"games", games}};
}

}  // namespace elgrande::server
