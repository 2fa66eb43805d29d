#include <catch2/catch.hpp>

#include "elgrande/competition/results.hpp"

using namespace elgrande::competition;

namespace {
double points_of(const Placing& p) { return p.points.value(); }
}  // namespace

TEST_CASE("The default placement points run from 6 for first to 0 for last at every table size") {
  const PlacementPoints points = PlacementPoints::linear();
  CHECK(points.of(5, 0).value() == 6);
  CHECK(points.of(5, 1).value() == 4.5);
  CHECK(points.of(5, 2).value() == 3);
  CHECK(points.of(5, 3).value() == 1.5);
  CHECK(points.of(5, 4).value() == 0);
  CHECK(points.of(4, 1).value() == 4);
  CHECK(points.of(3, 1).value() == 3);
  CHECK(points.of(2, 1).value() == 0);
  for (int size = 2; size <= 5; ++size) {
    Points total;
    for (int place = 0; place < size; ++place) total += points.of(size, place);
    INFO("table of " << size);
    CHECK(total.value() == 3.0 * size);  // 3 points per player on average
  }
  CHECK_FALSE(points.problem(2, 5));
}

TEST_CASE("Placement points must cover every place, never reward a worse place, and come in halves") {
  PlacementPoints points = PlacementPoints::linear();
  points.by_table_size[4] = {Points::halves(8), Points::halves(4)};
  CHECK(points.problem(3, 5)->find("4 places") != std::string::npos);
  CHECK_FALSE(points.problem(5, 5));
  points.by_table_size[4] = {Points::halves(8), Points::halves(9), Points::halves(2), {}};
  CHECK(points.problem(4, 4)->find("more than the place above") != std::string::npos);
  points.by_table_size[4] = {Points{100}, {}, {}, {}};
  CHECK(points.problem(4, 4)->find("half points") != std::string::npos);
}

TEST_CASE("Players with equal final scores share a place and the points of the places they cover") {
  // Five players: 62, 55, 55, 40, 40. Second and third share 4.5 + 3; fourth and fifth
  // share 1.5 + 0.
  const TableResult table{{11, 12, 13, 14, 15}, {55, 40, 62, 55, 40}, {}};
  const auto placed = placings(table, PlacementPoints::linear());
  CHECK(placed[2].place == 0);
  CHECK(points_of(placed[2]) == 6);
  CHECK(placed[0].place == 1);
  CHECK(placed[3].place == 1);
  CHECK(placed[0].tied == 2);
  CHECK(points_of(placed[0]) == 3.75);
  CHECK(points_of(placed[3]) == 3.75);
  CHECK(placed[1].place == 3);
  CHECK(points_of(placed[1]) == 0.75);
  CHECK(points_of(placed[4]) == 0.75);
}

TEST_CASE("Three players tied for first at a table of four share 6 + 4 + 2 exactly") {
  const TableResult table{{1, 2, 3, 4}, {80, 80, 80, 70}, {}};
  const auto placed = placings(table, PlacementPoints::linear());
  for (int s = 0; s < 3; ++s) CHECK(placed[static_cast<std::size_t>(s)].points == Points::halves(8));
  CHECK(placed[3].place == 3);
  CHECK(placed[3].points == Points{});
}

TEST_CASE("A forfeited seat ranks behind every finisher, whatever the score its replacement made") {
  const TableResult table{{1, 2, 3, 4}, {90, 60, 50, 40}, {true, false, false, true}};
  const auto placed = placings(table, PlacementPoints::linear());
  CHECK(placed[1].place == 0);
  CHECK(placed[2].place == 1);
  CHECK(placed[0].place == 2);  // 90 points, but forfeited: shares the last two places
  CHECK(placed[3].place == 2);
  CHECK(placed[0].points.value() == 1);  // (2 + 0) / 2
  CHECK(placed[0].forfeit);
  CHECK(winner_score(table) == 60);
  CHECK(percent_of_winner(table, 2) == Approx(250.0 / 3));
  CHECK(percent_of_winner(table, 0) == 0);
  CHECK(percent_of_winner(table, 1) == 100);
}

TEST_CASE("Everyone at a table where nobody scored has 100 percent of the winner's score") {
  const TableResult table{{1, 2, 3}, {0, 0, 0}, {}};
  CHECK(percent_of_winner(table, 1) == 100);
  CHECK(placings(table, PlacementPoints::linear())[2].points.value() == 3);
}
