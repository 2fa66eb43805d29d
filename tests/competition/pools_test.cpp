#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "elgrande/competition/pools.hpp"

using namespace elgrande::competition;

namespace {

std::vector<PlayerId> numbered_field(int n) {  // players 1 to n
  std::vector<PlayerId> players;
  for (int p = 1; p <= n; ++p) players.push_back(p);
  return players;
}

std::map<std::pair<PlayerId, PlayerId>, int> meetings_in(const std::vector<RoundPlan>& rounds) {
  std::map<std::pair<PlayerId, PlayerId>, int> met;
  for (const RoundPlan& round : rounds) {
    for (const auto& table : round.tables) {
      for (PlayerId a : table) {
        for (PlayerId b : table) {
          if (a < b) ++met[{a, b}];
        }
      }
    }
  }
  return met;
}

void check_each_round_seats_each_player_once(const std::vector<PlayerId>& pool, const std::vector<RoundPlan>& rounds,
                                             TableSizes sizes) {
  for (const RoundPlan& round : rounds) {
    std::multiset<PlayerId> seen(round.byes.begin(), round.byes.end());
    for (const auto& table : round.tables) {
      CHECK(static_cast<int>(table.size()) >= sizes.minimum);
      CHECK(static_cast<int>(table.size()) <= sizes.preferred);
      seen.insert(table.begin(), table.end());
    }
    CHECK(std::vector<PlayerId>(seen.begin(), seen.end()) == pool);
  }
}

}  // namespace

TEST_CASE("Pools are snaked from the seeding and differ in size by at most one") {
  const auto pools = split_into_pools(numbered_field(11), 3);
  CHECK(pools[0] == std::vector<PlayerId>{1, 6, 7});
  CHECK(pools[1] == std::vector<PlayerId>{2, 5, 8, 11});
  CHECK(pools[2] == std::vector<PlayerId>{3, 4, 9, 10});
}

TEST_CASE("A pool of one table plays it as often as asked, and with as many games as players each begins once") {
  const std::vector<PlayerId> pool = numbered_field(4);
  const auto rounds = round_robin(pool, {5, 3}, 4, 1);
  REQUIRE(rounds.size() == 4);
  std::map<PlayerId, int> starts;
  std::map<std::pair<PlayerId, int>, int> seats;
  for (const RoundPlan& round : rounds) {
    REQUIRE(round.tables.size() == 1);
    ++starts[round.tables[0][0]];
    for (int s = 0; s < 4; ++s) ++seats[{round.tables[0][static_cast<std::size_t>(s)], s}];
  }
  for (PlayerId p : pool) CHECK(starts[p] == 1);
  for (const auto& [seat, count] : seats) CHECK(count == 1);
}

TEST_CASE("9, 16 and 25 players at tables of 3, 4 and 5 play an affine plane: every pair meets exactly once") {
  for (int q : {3, 4, 5}) {
    INFO("tables of " << q);
    const std::vector<PlayerId> pool = numbered_field(q * q);
    const auto rounds = round_robin(pool, {q, q}, 1, 2);
    REQUIRE(rounds.size() == static_cast<std::size_t>(q + 1));
    check_each_round_seats_each_player_once(pool, rounds, {q, q});
    const auto met = meetings_in(rounds);
    CHECK(met.size() == static_cast<std::size_t>(q * q * (q * q - 1) / 2));
    for (const auto& [pair, count] : met) CHECK(count == 1);
  }
}

TEST_CASE("Other pool sizes are searched until every pair has met as often as asked") {
  for (const auto& [n, sizes, meetings] : std::vector<std::tuple<int, TableSizes, int>>{
           {6, {3, 3}, 1}, {7, {4, 3}, 1}, {8, {4, 4}, 1}, {10, {5, 5}, 1}, {11, {4, 3}, 1},
           {12, {4, 4}, 1}, {13, {5, 4}, 1}, {8, {4, 4}, 2}, {15, {3, 3}, 1}}) {
    INFO(n << " players at " << sizes.minimum << ".." << sizes.preferred << ", meeting " << meetings << " times");
    const std::vector<PlayerId> pool = numbered_field(n);
    const auto rounds = round_robin(pool, sizes, meetings, 3);
    REQUIRE_FALSE(rounds.empty());
    check_each_round_seats_each_player_once(pool, rounds, sizes);
    const auto met = meetings_in(rounds);
    CHECK(met.size() == static_cast<std::size_t>(n * (n - 1) / 2));
    for (const auto& [pair, count] : met) CHECK(count >= meetings);
    // No more rounds than twice the fewest that could possibly cover every pair.
    const int lower = (meetings * (n - 1) + sizes.preferred - 2) / (sizes.preferred - 1);
    CHECK(static_cast<int>(rounds.size()) <= 2 * lower);
  }
}

TEST_CASE("In a searched pool, starts are spread: nobody begins twice before everyone at their table began once") {
  const std::vector<PlayerId> pool = numbered_field(12);
  const auto rounds = round_robin(pool, {4, 4}, 1, 5);
  std::map<PlayerId, int> starts;
  for (const RoundPlan& round : rounds) {
    for (const auto& table : round.tables) {
      for (PlayerId p : table) CHECK(starts[table[0]] <= starts[p]);
    }
    for (const auto& table : round.tables) ++starts[table[0]];
  }
}

TEST_CASE("A pool smaller than the smallest table has no rounds") {
  CHECK(round_robin(numbered_field(2), {5, 3}, 1, 1).empty());
}
