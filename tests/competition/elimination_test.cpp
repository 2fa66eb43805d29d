#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>

#include "elgrande/competition/draw.hpp"
#include "elgrande/competition/elimination.hpp"

using namespace elgrande::competition;

TEST_CASE("Only between 1 and half a table may advance, so every round shrinks the field") {
  CHECK_FALSE(EliminationRules{2, {5, 4}}.problem());
  CHECK(EliminationRules{3, {5, 4}}.problem());
  CHECK(EliminationRules{0, {5, 4}}.problem());
  CHECK(EliminationRules{2, {3, 3}}.problem());
}

TEST_CASE("The next round fills whole tables of the preferred size, and the final table ends it") {
  const EliminationRules top2{2, {5, 4}};
  CHECK(next_round_count(5, top2) == 10);  // 25 players: 10 go on, two tables of 5
  CHECK(next_round_count(2, top2) == 5);   // 4 advance, one runner-up fills the final table
  CHECK(next_round_count(6, top2) == 15);  // 12 advance, three runners-up fill three tables
  CHECK(next_round_count(1, top2) == 0);
}

TEST_CASE("Runners-up are ranked by their score as a share of their own table winner's") {
  // Two tables, top 1 advances, the final needs 5: three runners-up join.
  const std::vector<TableResult> round{
      {{1, 2, 3, 4, 5}, {100, 90, 50, 40, 30}, {}},  // 2 has 90%
      {{6, 7, 8, 9, 10}, {60, 57, 54, 10, 5}, {}},  // 7 has 95%, 8 has 90%
  };
  const EliminationRules rules{1, {5, 4}};
  const auto next = advancing(round, rules, {}, 1);
  REQUIRE(next.size() == 5);
  CHECK(std::set<PlayerId>(next.begin(), next.begin() + 2) == std::set<PlayerId>{1, 6});
  CHECK(next[2] == 7);
  // 2 and 8 both have 90%: the better place (both second? 2 is second, 8 is third) decides.
  CHECK(next[3] == 2);
  CHECK(next[4] == 8);
  // A withdrawn player is passed over: the next runner-up takes the seat.
  const auto without7 = advancing(round, rules, {7}, 1);
  CHECK(std::find(without7.begin(), without7.end(), 7) == without7.end());
  CHECK(without7.size() == 5);
  CHECK(without7.back() == 3);  // 50%
}

TEST_CASE("A 25-player elimination, top 2 of each table, goes down to one final table of 5") {
  std::vector<PlayerId> field;
  for (PlayerId p = 1; p <= 25; ++p) field.push_back(p);
  const EliminationRules rules{2, {5, 4}};
  REQUIRE_FALSE(rules.problem());
  History history;
  std::mt19937_64 rng(25);
  std::vector<PlayerId> seeded = shuffled(field, 25);
  std::vector<std::size_t> table_counts;
  for (int round = 0; round < 10 && !seeded.empty(); ++round) {
    const RoundPlan plan = elimination_round(seeded, rules.sizes, history, static_cast<std::uint64_t>(round));
    CHECK(plan.byes.empty());
    table_counts.push_back(plan.tables.size());
    std::vector<TableResult> results;
    std::set<PlayerId> playing;
    for (const auto& table : plan.tables) {
      history.add_table(table);
      TableResult result{table, {}, {}};
      for (std::size_t s = 0; s < table.size(); ++s) result.scores.push_back(static_cast<int>(rng() % 100));
      results.push_back(result);
      playing.insert(table.begin(), table.end());
    }
    CHECK(playing.size() == seeded.size());
    const auto next = advancing(results, rules, {}, 7);
    for (PlayerId p : next) CHECK(playing.contains(p));  // only this round's players go on
    // Every table's top 2 go on: its winner, and at least two of its players.
    for (const TableResult& r : results) {
      if (next.empty()) break;  // the final table
      const auto placed = placings(r, PlacementPoints::linear());
      int going_on = 0;
      for (std::size_t s = 0; s < r.seats.size(); ++s) {
        const bool goes = std::count(next.begin(), next.end(), r.seats[s]) == 1;
        going_on += goes;
        if (placed[s].place == 0 && placed[s].tied == 1) CHECK(goes);
      }
      CHECK(going_on >= 2);
    }
    seeded = next;
  }
  CHECK(table_counts == std::vector<std::size_t>{5, 2, 1});
}

TEST_CASE("Elimination tables are snaked: the top seeds are spread over the tables") {
  std::vector<PlayerId> seeded;
  for (PlayerId p = 1; p <= 10; ++p) seeded.push_back(p);
  const RoundPlan plan = elimination_round(seeded, {5, 4}, History{}, 1);
  REQUIRE(plan.tables.size() == 2);
  const std::set<PlayerId> first(plan.tables[0].begin(), plan.tables[0].end());
  CHECK(first == std::set<PlayerId>{1, 4, 5, 8, 9});
}
