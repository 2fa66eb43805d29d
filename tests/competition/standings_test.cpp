#include <catch2/catch.hpp>

#include <map>

#include "elgrande/competition/standings.hpp"

using namespace elgrande::competition;

namespace {
const Standing& row_of(const std::vector<Standing>& rows, PlayerId player) {
  for (const Standing& r : rows) {
    if (r.player == player) return r;
  }
  FAIL("no row for player " << player);
  return rows.front();
}
std::vector<Entrant> entrants(std::initializer_list<PlayerId> players) {
  std::vector<Entrant> result;
  for (PlayerId p : players) result.push_back({p});
  return result;
}
}  // namespace

// The worked example of docs/tournaments.md: six players, two rounds of tables of three.
TEST_CASE("The worked example: points, Sonneborn-Berger, percent of the winner, game points and wins") {
  // Round 1: A 90, B 60, C 30 | D 70, E 70, F 50.   Round 2: A 80, D 100, E 40 | B 50, C 50, F 60.
  const std::vector<RoundResults> rounds{
      {{{{1, 2, 3}, {90, 60, 30}, {}}, {{4, 5, 6}, {70, 70, 50}, {}}}, {}},
      {{{{1, 4, 5}, {80, 100, 40}, {}}, {{2, 3, 6}, {50, 50, 60}, {}}}, {}},
  };
  const auto rows = standings(entrants({1, 2, 3, 4, 5, 6}), rounds, {});
  // Points at tables of 3: 6, 3, 0; a tie for first shares 4.5, for second 1.5.
  CHECK(row_of(rows, 1).points.value() == 9);    // 6 + 3
  CHECK(row_of(rows, 2).points.value() == 4.5);  // 3 + 1.5
  CHECK(row_of(rows, 3).points.value() == 1.5);  // 0 + 1.5
  CHECK(row_of(rows, 4).points.value() == 10.5); // 4.5 + 6
  CHECK(row_of(rows, 5).points.value() == 4.5);  // 4.5 + 0
  CHECK(row_of(rows, 6).points.value() == 6);    // 0 + 6
  // D: tied with E (1×4.5), above F (2×6); above A (2×9) and E (2×4.5): 4.5+12+18+9 = 43.5.
  CHECK(row_of(rows, 4).sonneborn_berger.value() == 43.5);
  // B: above C (2×1.5), tied with C (1×1.5): 4.5.  E: tied with D (10.5), above F (12): 22.5.
  CHECK(row_of(rows, 2).sonneborn_berger.value() == 4.5);
  CHECK(row_of(rows, 5).sonneborn_berger.value() == 22.5);
  // B and E both have 4.5 points; E's Sonneborn–Berger is higher.
  CHECK(row_of(rows, 5).rank < row_of(rows, 2).rank);
  CHECK(row_of(rows, 1).percent_of_winner == Approx((100.0 + 80.0) / 2));
  CHECK(row_of(rows, 3).percent_of_winner == Approx((100.0 / 3 + 250.0 / 3) / 2));
  CHECK(row_of(rows, 1).game_points == 170);
  CHECK(row_of(rows, 4).wins == 2);  // a shared first place is a win
  CHECK(row_of(rows, 5).wins == 1);
  std::vector<PlayerId> order;
  for (const Standing& r : rows) order.push_back(r.player);
  CHECK(order == std::vector<PlayerId>{4, 1, 6, 5, 2, 3});
  CHECK(rows[0].rank == 1);
  CHECK(rows[5].rank == 6);
}

TEST_CASE("The tie-break order is the organiser's: without Sonneborn-Berger, B and E are split by lot") {
  const std::vector<RoundResults> rounds{
      {{{{1, 2, 3}, {90, 60, 30}, {}}, {{4, 5, 6}, {70, 70, 50}, {}}}, {}},
      {{{{1, 4, 5}, {80, 100, 40}, {}}, {{2, 3, 6}, {50, 50, 60}, {}}}, {}},
  };
  ScoringRules rules;
  rules.order = {TieBreak::tournament_points, TieBreak::game_points};
  const auto rows = standings(entrants({1, 2, 3, 4, 5, 6}), rounds, rules);
  // B and E have 4.5 points and 110 game points each: with Sonneborn–Berger left out of the
  // order, only the lot splits them, and the standings say so.
  const Standing& b = row_of(rows, 2);
  const Standing& e = row_of(rows, 5);
  CHECK(std::abs(b.rank - e.rank) == 1);
  CHECK((b.rank > e.rank ? b : e).tied_with_previous);
}

TEST_CASE("A complete tie is settled by a lot drawn from the event's seed, the same every time") {
  const std::vector<RoundResults> rounds{{{{{1, 2, 3, 4}, {50, 50, 50, 50}, {}}}, {}}};
  ScoringRules rules;
  rules.seed = 7;
  const auto once = standings(entrants({1, 2, 3, 4}), rounds, rules);
  const auto again = standings(entrants({4, 3, 2, 1}), rounds, rules);
  for (std::size_t i = 0; i < once.size(); ++i) {
    CHECK(once[i].player == again[i].player);
    CHECK(once[i].points.value() == 3);
    CHECK(once[i].tied_with_previous == (i > 0));
  }
  bool other_order = false;
  for (std::uint64_t seed = 8; seed < 40 && !other_order; ++seed) {
    rules.seed = seed;
    other_order = standings(entrants({1, 2, 3, 4}), rounds, rules)[0].player != once[0].player;
  }
  CHECK(other_order);
}

TEST_CASE("Seeding by rating orders players equal on every tie-break, before the lot, and never above a tie-break") {
  ScoringRules rules;
  rules.seed = 7;
  std::vector<Entrant> field = entrants({1, 2, 3, 4});
  const std::map<PlayerId, int> rating{{1, 980}, {2, 1240}, {3, 1000}, {4, 1120}};
  for (Entrant& e : field) e.seeding = rating.at(e.player);
  // Before any game: by rating, whatever the lot would say.
  std::vector<PlayerId> order;
  for (const Standing& r : standings(field, {}, rules)) order.push_back(r.player);
  CHECK(order == std::vector<PlayerId>{2, 4, 3, 1});
  // After a game, points come first: the lowest rated won.
  const std::vector<RoundResults> rounds{{{{{1, 2, 3, 4}, {90, 50, 50, 50}, {}}}, {}}};
  const auto rows = standings(field, rounds, rules);
  order.clear();
  for (const Standing& r : rows) order.push_back(r.player);
  CHECK(order == std::vector<PlayerId>{1, 2, 4, 3});
  // Those the seeding alone split are still shown as tied on the tie-breaks.
  CHECK(rows[2].tied_with_previous);
  CHECK(rows[3].tied_with_previous);
  CHECK_FALSE(rows[1].tied_with_previous);
}

TEST_CASE("A bye scores its points and counts as no game played") {
  const std::vector<RoundResults> rounds{{{{{1, 2, 3, 4}, {90, 80, 70, 60}, {}}}, {5}}};
  const auto rows = standings(entrants({1, 2, 3, 4, 5}), rounds, {});
  CHECK(row_of(rows, 5).points.value() == 3);
  CHECK(row_of(rows, 5).byes == 1);
  CHECK(row_of(rows, 5).played == 0);
  CHECK(row_of(rows, 5).percent_of_winner == 0);
}

TEST_CASE("A disqualified player ranks below everyone, and still counts in co-players' Sonneborn-Berger") {
  const std::vector<RoundResults> rounds{{{{{1, 2, 3}, {90, 60, 30}, {}}}, {}}};
  std::vector<Entrant> field = entrants({1, 2, 3});
  field[0].disqualified = true;
  const auto rows = standings(field, rounds, {});
  CHECK(rows.back().player == 1);
  CHECK(rows.back().disqualified);
  CHECK(row_of(rows, 2).rank == 1);
  CHECK(row_of(rows, 2).sonneborn_berger.value() == 0);  // only above C, who has 0
  CHECK(row_of(rows, 1).sonneborn_berger.value() == 6);  // above B: 2 × 3
}

TEST_CASE("A forfeit scores no game points and no win, and ranks last at its table") {
  const std::vector<RoundResults> rounds{{{{{1, 2, 3}, {90, 60, 30}, {true, false, false}}}, {}}};
  const auto rows = standings(entrants({1, 2, 3}), rounds, {});
  CHECK(row_of(rows, 1).forfeits == 1);
  CHECK(row_of(rows, 1).game_points == 0);
  CHECK(row_of(rows, 1).wins == 0);
  CHECK(row_of(rows, 2).wins == 1);
  CHECK(row_of(rows, 1).rank == 3);
}

TEST_CASE("Tie-breaks have names for configuration, and unknown names are refused") {
  for (TieBreak t : {TieBreak::tournament_points, TieBreak::sonneborn_berger, TieBreak::percent_of_winner,
                     TieBreak::game_points, TieBreak::wins}) {
    CHECK(tie_break_named(name(t)) == t);
  }
  CHECK_FALSE(tie_break_named("buchholz"));
}
