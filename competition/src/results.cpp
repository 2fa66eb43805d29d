#include "elgrande/competition/results.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace elgrande::competition {

PlacementPoints PlacementPoints::linear(int first) {
  PlacementPoints table;
  for (int size = 2; size <= 5; ++size) {
    for (int place = 0; place < size; ++place) {
      // first·(size−1−place)/(size−1) points, counted in 120ths: exact for every size.
      table.by_table_size[size].push_back(
          {Points::unit * first * (size - 1 - place) / (size - 1)});
    }
  }
  return table;
}

Points PlacementPoints::of(int table_size, int place) const {
  if (table_size < 0 || table_size >= static_cast<int>(by_table_size.size())) return {};
  const auto& places = by_table_size[static_cast<std::size_t>(table_size)];
  return place >= 0 && place < static_cast<int>(places.size()) ? places[static_cast<std::size_t>(place)]
                                                               : Points{};
}

std::optional<std::string> PlacementPoints::problem(int smallest_table, int largest_table) const {
  for (int size = smallest_table; size <= largest_table; ++size) {
    const auto& places = by_table_size[static_cast<std::size_t>(size)];
    const std::string table = "tables of " + std::to_string(size);
    if (places.size() != static_cast<std::size_t>(size)) {
      return table + " need points for each of their " + std::to_string(size) + " places";
    }
    for (std::size_t place = 0; place < places.size(); ++place) {
      if (places[place].n < 0 || places[place].n % (Points::unit / 2) != 0) {
        return table + ": place points must be whole or half points, not negative";
      }
      if (place > 0 && places[place] > places[place - 1]) {
        return table + ": a place may not be worth more than the place above it";
      }
    }
  }
  return std::nullopt;
}

std::vector<Placing> placings(const TableResult& table, const PlacementPoints& points) {
  const std::size_t size = table.seats.size();
  if (table.scores.size() != size) throw std::invalid_argument("a table result needs a score for every seat");
  std::vector<std::size_t> order(size);
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Finishers first by score, forfeits after them; a tie is equal on both.
  const auto key = [&](std::size_t seat) {
    return std::pair{table.forfeit(seat) ? 1 : 0, table.forfeit(seat) ? 0 : -table.scores[seat]};
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return key(a) < key(b); });

  std::vector<Placing> result(size);
  for (std::size_t first = 0; first < size;) {
    std::size_t last = first;
    while (last + 1 < size && key(order[last + 1]) == key(order[first])) ++last;
    const int tied = static_cast<int>(last - first + 1);
    Points covered;
    for (std::size_t place = first; place <= last; ++place) {
      covered += points.of(static_cast<int>(size), static_cast<int>(place));
    }
    for (std::size_t i = first; i <= last; ++i) {
      const std::size_t seat = order[i];
      result[seat] = {static_cast<int>(first), tied, {covered.n / tied}, table.forfeit(seat)};
    }
    first = last + 1;
  }
  return result;
}

int winner_score(const TableResult& table) {
  int best = 0;
  bool any = false;
  for (std::size_t seat = 0; seat < table.seats.size(); ++seat) {
    if (table.forfeit(seat)) continue;
    best = any ? std::max(best, table.scores[seat]) : table.scores[seat];
    any = true;
  }
  return best;
}

double percent_of_winner(const TableResult& table, std::size_t seat) {
  if (table.forfeit(seat)) return 0.0;
  const int winner = winner_score(table);
  if (winner <= 0) return 100.0;
  return 100.0 * table.scores[seat] / winner;
}

}  // namespace elgrande::competition
