#include "ratings/ratings.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>


namespace elgrande::server {

namespace {

std::int64_t entry_key(PlayerId player, std::size_t ladder) { return player * 16 + static_cast<std::int64_t>(ladder); }
std::pair<double, PlayerId> order_key(PlayerId player, competition::Rating rating) {
  return {-competition::ordinal(rating), player};
}

}  // namespace

Ratings::Ratings(std::span<const std::string_view> ladders) : names_(ladders.begin(), ladders.end()), ladders_(ladders.size()) {
  if (ladders.size() > 16) throw std::invalid_argument("more than 16 rating ladders");  // entry_key's room
}

std::optional<std::size_t> Ratings::ladder_index(std::string_view ladder) const {
  const auto found = std::ranges::find(names_, ladder);
  if (found == names_.end()) return std::nullopt;
  return static_cast<std::size_t>(found - names_.begin());
}

void Ratings::set(PlayerId player, std::size_t ladder, Entry entry) {
  auto [at, inserted] = ratings_.try_emplace(entry_key(player, ladder), entry);
  if (!inserted) {
    if (at->second.seq >= entry.seq) return;
    ladders_[ladder].erase(order_key(player, at->second.current.rating));
    at->second = entry;
  }
  ladders_[ladder].insert(order_key(player, entry.current.rating));
}

void Ratings::restore(const std::vector<db::RatingRecord>& stored) {
  std::unique_lock lock(mutex_);
  for (const db::RatingRecord& r : stored) {
    if (const auto ladder = ladder_index(r.ladder)) set(r.player, *ladder, {{{r.mu, r.sigma}, r.games}, r.last_seq});
  }
}

void Ratings::rated(const db::RatedGame& game) {
  const auto ladder = ladder_index(game.ladder);
  if (!ladder) return;
  std::unique_lock lock(mutex_);
  for (const db::RatingChange& change : game.changes) {
    const auto was = ratings_.find(entry_key(change.player, *ladder));
    const int games = was == ratings_.end() ? 1 : was->second.current.games + 1;
    set(change.player, *ladder, {{{change.mu, change.sigma}, games}, game.seq});
  }
}

std::optional<Ratings::Current> Ratings::find(PlayerId player, std::string_view ladder) const {
  const auto index = ladder_index(ladder);
  if (!index) return std::nullopt;
  std::shared_lock lock(mutex_);
  const auto found = ratings_.find(entry_key(player, *index));
  if (found == ratings_.end()) return std::nullopt;
  return found->second.current;
}

std::vector<Ratings::Place> Ratings::page(std::string_view ladder, std::size_t offset, std::size_t limit) const {
  const auto index = ladder_index(ladder);
  std::vector<Place> places;
  if (!index) return places;
  std::shared_lock lock(mutex_);
  const Order& order = ladders_[*index];
  for (auto at = order.find_by_order(offset); at != order.end() && places.size() < limit; ++at) {
    const PlayerId player = at->second;
    places.push_back({player, ratings_.at(entry_key(player, *index)).current});
  }
  return places;
}

std::size_t Ratings::size(std::string_view ladder) const {
  const auto index = ladder_index(ladder);
  if (!index) return 0;
  std::shared_lock lock(mutex_);
  return ladders_[*index].size();
}

std::optional<std::size_t> Ratings::rank(PlayerId player, std::string_view ladder) const {
  const auto index = ladder_index(ladder);
  if (!index) return std::nullopt;
  std::shared_lock lock(mutex_);
  const auto found = ratings_.find(entry_key(player, *index));
  if (found == ratings_.end()) return std::nullopt;
  return ladders_[*index].order_of_key(order_key(player, found->second.current.rating)) + 1;
}

protocol::Json Ratings::shown(PlayerId player, std::string_view ladder) const {
  const std::optional<Current> current = find(player, ladder);
  return current ? rating_json(ladder, current->rating, current->games)
                 : rating_json(ladder, competition::RatingModel{}.newcomer(), 0);
}

int Ratings::displayed(PlayerId player, std::string_view ladder) const {
  const std::optional<Current> current = find(player, ladder);
  return competition::displayed(current ? current->rating : competition::RatingModel{}.newcomer());
}

protocol::Json rating_json(std::string_view ladder, competition::Rating rating, int games) {
  return {{"ladder", ladder},
          {"rating", competition::displayed(rating)},
          {"provisional", competition::provisional(rating)},
          {"games", games}};
}

}  // namespace elgrande::server
