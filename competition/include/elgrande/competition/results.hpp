#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// What a tournament table's game produced, and what each place is worth. Plain values, no
// clock, no storage: the server records results, this library reads them.
namespace elgrande::competition {

using PlayerId = std::int64_t;

// Tournament points, exact: counted in 120ths of a point, so that a tie shared by two,
// three, four or five players splits whole and half points without rounding.
struct Points {
  std::int64_t n = 0;  // in 120ths

  static constexpr std::int64_t unit = 120;
  static Points halves(std::int64_t halves) { return {halves * unit / 2}; }
  double value() const { return static_cast<double>(n) / unit; }

  Points& operator+=(Points other) { n += other.n; return *this; }
  friend Points operator+(Points a, Points b) { return {a.n + b.n}; }
  friend Points operator*(std::int64_t k, Points p) { return {k * p.n}; }
  friend auto operator<=>(const Points&, const Points&) = default;
};

// Points a place is worth, per table size (2..5 seats). Index 0 is first place.
struct PlacementPoints {
  std::array<std::vector<Points>, 6> by_table_size;

  // Documented default (docs/tournaments.md): first 6, last 0, the places between evenly
  // spaced, so every table size hands out 3 points per player on average and a table of 4
  // is worth as much to the field as a table of 5.
  static PlacementPoints linear(int first = 6);
  // The points of `place` (0-based) at a table of `table_size`; 0 past the table's places.
  Points of(int table_size, int place) const;
  // Why these points cannot be used (a size without points, a place missing, a worse place
  // worth more, a value not a multiple of half a point), if so.
  std::optional<std::string> problem(int smallest_table, int largest_table) const;
};

// One finished table. Seat 0 began the game.
struct TableResult {
  std::vector<PlayerId> seats;
  std::vector<int> scores;       // final game score per seat
  std::vector<bool> forfeited;   // resigned or replaced for timeouts; empty means none
  bool forfeit(std::size_t seat) const { return seat < forfeited.size() && forfeited[seat]; }
};

// Where each seat of a table finished. Finishers are ranked by score, and players with equal
// scores share a place; a forfeited seat ranks behind every finisher (forfeits share the
// last place among themselves), whatever its score.
struct Placing {
  int place = 0;      // 0-based: 0 is first; tied players have the same place
  int tied = 1;       // how many players share it
  Points points;      // the places it covers, shared equally
  bool forfeit = false;
};
std::vector<Placing> placings(const TableResult& table, const PlacementPoints& points);

// The score of the table's winner: the best finisher's (forfeits excluded), 0 if none.
int winner_score(const TableResult& table);

// A seat's score as a share of the winner's, in percent: 100 for the winner (also when all
// scored 0), 0 for a forfeited seat.
double percent_of_winner(const TableResult& table, std::size_t seat);

}  // namespace elgrande::competition
