#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <set>

#include "elgrande/competition/draw.hpp"
#include "elgrande/competition/grouping.hpp"

using namespace elgrande::competition;

namespace {

std::vector<PlayerId> field_of(int n) {
  std::vector<PlayerId> players;
  for (int p = 0; p < n; ++p) players.push_back(100 + p);
  return players;
}

void record(History& history, const RoundPlan& round) {
  for (const auto& table : round.tables) history.add_table(table);
  for (PlayerId p : round.byes) history.add_bye(p);
}

// The fewest repeated meetings any grouping of `players` into `sizes` has, by trying every
// assignment of players to tables in turn (tables of one size opened in order, so each
// grouping is tried once). Independent of the library's search.
int fewest_repeats(const std::vector<PlayerId>& players, const std::vector<int>& sizes,
                   const History& history) {
  std::vector<std::vector<PlayerId>> tables(sizes.size());
  int best = 1 << 30;
  const auto place = [&](auto& self, std::size_t next, int cost) -> void {
    if (cost >= best) return;
    if (next == players.size()) {
      best = cost;
      return;
    }
    for (std::size_t t = 0; t < tables.size(); ++t) {
      if (static_cast<int>(tables[t].size()) == sizes[t]) continue;
      // An empty table is only opened if no earlier table of its size is still empty.
      if (tables[t].empty()) {
        bool earlier_empty = false;
        for (std::size_t u = 0; u < t; ++u) earlier_empty |= tables[u].empty() && sizes[u] == sizes[t];
        if (earlier_empty) continue;
      }
      int added = 0;
      for (PlayerId other : tables[t]) added += history.meetings(players[next], other);
      tables[t].push_back(players[next]);
      self(self, next + 1, cost + added);
      tables[t].pop_back();
    }
  };
  place(place, 0, 0);
  return best;
}

// A few earlier rounds of random tables, so repeats are hard to avoid.
History random_history(const std::vector<PlayerId>& players, int rounds, std::mt19937_64& rng) {
  History history;
  for (int r = 0; r < rounds; ++r) {
    std::vector<PlayerId> order = players;
    std::shuffle(order.begin(), order.end(), rng);
    const int size = 3 + static_cast<int>(rng() % 3);
    for (std::size_t i = 0; i + static_cast<std::size_t>(size) <= order.size(); i += static_cast<std::size_t>(size)) {
      history.add_table({order.begin() + static_cast<std::ptrdiff_t>(i),
                         order.begin() + static_cast<std::ptrdiff_t>(i) + size});
    }
  }
  return history;
}

}  // namespace

TEST_CASE("Seating: as few tables as fit, sizes within the organiser's bounds, byes only when no split fits") {
  for (int minimum = 2; minimum <= 5; ++minimum) {
    for (int preferred = minimum; preferred <= 5; ++preferred) {
      for (int players = 0; players <= 500; ++players) {
        const Seating s = seating(players, {preferred, minimum});
        INFO(players << " players, preferred " << preferred << ", minimum " << minimum);
        int seated = 0;
        for (std::size_t t = 0; t < s.tables.size(); ++t) {
          REQUIRE(s.tables[t] >= minimum);
          REQUIRE(s.tables[t] <= preferred);
          REQUIRE(s.tables[t] >= s.tables.back());  // larger tables first
          REQUIRE(s.tables.front() - s.tables[t] <= 1);
          seated += s.tables[t];
        }
        REQUIRE(seated + s.byes == players);
        // No count with fewer byes can be split into tables within the bounds at all.
        for (int fewer = 0; fewer < s.byes; ++fewer) {
          const int n = players - fewer;
          bool fits = false;
          for (int tables = 1; tables <= n && !fits; ++tables) fits = tables * minimum <= n && n <= tables * preferred;
          REQUIRE_FALSE(fits);
        }
      }
    }
  }
  CHECK(seating(13, {5, 3}).tables == std::vector<int>{5, 4, 4});
  CHECK(seating(7, {5, 4}).tables == std::vector<int>{5});
  CHECK(seating(7, {5, 4}).byes == 2);
  CHECK(seating(11, {5, 4}).byes == 1);
  CHECK(seating(12, {5, 4}).tables == std::vector<int>{4, 4, 4});
}

TEST_CASE("Swiss rounds over a thousand random fields: everyone seated once, sizes in bounds, starts balanced") {
  std::mt19937_64 rng(20261123);
  // A quarter of them under the sanitizers, which look for memory errors, not more fields.
  const int trials = std::getenv("ELGRANDE_SANITIZED") ? 250 : 1000;
  for (int trial = 0; trial < trials; ++trial) {
    const int minimum = 3 + static_cast<int>(rng() % 2);
    const TableSizes sizes{minimum + static_cast<int>(rng() % static_cast<std::uint64_t>(6 - minimum)), minimum};
    const int n = 3 + static_cast<int>(rng() % (trial % 10 == 0 ? 400 : 60));
    const int rounds = 1 + static_cast<int>(rng() % 6);
    const std::vector<PlayerId> field = field_of(n);
    History history;
    std::vector<PlayerId> standing = shuffled(field, static_cast<std::uint64_t>(trial));
    for (int r = 0; r < rounds; ++r) {
      INFO("trial " << trial << ": " << n << " players, sizes " << sizes.minimum << ".." << sizes.preferred
                    << ", round " << r + 1);
      const RoundPlan plan = swiss_round(standing, sizes, history, static_cast<std::uint64_t>(trial * 31 + r));
      std::multiset<PlayerId> seen(plan.byes.begin(), plan.byes.end());
      for (const auto& table : plan.tables) {
        REQUIRE(static_cast<int>(table.size()) >= sizes.minimum);
        REQUIRE(static_cast<int>(table.size()) <= sizes.preferred);
        seen.insert(table.begin(), table.end());
        // The one who begins has begun no more games than anyone else at the table.
        for (PlayerId p : table) REQUIRE(history.starts(table[0]) <= history.starts(p));
      }
      REQUIRE(std::vector<PlayerId>(seen.begin(), seen.end()) == [&] {
        auto sorted = field;
        std::sort(sorted.begin(), sorted.end());
        return sorted;
      }());
      REQUIRE(static_cast<int>(plan.byes.size()) == seating(n, sizes).byes);
      record(history, plan);
      std::shuffle(standing.begin(), standing.end(), rng);  // random results
    }
  }
}

TEST_CASE("Up to 12 players, a Swiss round repeats no more meetings than an exhaustive search can avoid") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 4 + static_cast<int>(rng() % 9);
    const int minimum = 3 + static_cast<int>(rng() % 2);
    const TableSizes sizes{std::min(5, minimum + static_cast<int>(rng() % 2)), minimum};
    const std::vector<PlayerId> field = field_of(n);
    const History history = random_history(field, 1 + static_cast<int>(rng() % 4), rng);
    const Seating plan = seating(n, sizes);
    std::vector<PlayerId> seated(field.begin(), field.end() - plan.byes);
    INFO("trial " << trial << ": " << n << " players, sizes " << sizes.minimum << ".." << sizes.preferred);
    const auto tables = group(seated, plan.tables, history, static_cast<std::uint64_t>(trial));
    CHECK(repeated_meetings(tables, history) == fewest_repeats(seated, plan.tables, history));
  }
}

TEST_CASE("Among groupings with equally few repeats, tables stay close in standing") {
  // No history: the leaders sit together on board 1, the next on board 2.
  const std::vector<PlayerId> field = field_of(10);
  const auto tables = group(field, {5, 5}, History{}, 1);
  CHECK(tables[0] == std::vector<PlayerId>{100, 101, 102, 103, 104});
  CHECK(tables[1] == std::vector<PlayerId>{105, 106, 107, 108, 109});

  const std::vector<PlayerId> large = field_of(100);
  const auto boards = group(large, std::vector<int>(20, 5), History{}, 1);
  for (std::size_t b = 0; b < boards.size(); ++b) {
    CHECK(boards[b].front() == 100 + static_cast<PlayerId>(5 * b));
  }
}

TEST_CASE("Swiss avoids repeats in a 64-player event of four rounds at tables of 4 and 5") {
  const std::vector<PlayerId> field = field_of(64);
  History history;
  std::mt19937_64 rng(3);
  std::vector<PlayerId> standing = shuffled(field, 3);
  int repeats = 0;
  for (int r = 0; r < 4; ++r) {
    const RoundPlan plan = swiss_round(standing, {5, 4}, history, static_cast<std::uint64_t>(r));
    repeats += repeated_meetings(plan.tables, history);
    record(history, plan);
    // Results keep the field in rough order: a neighbour swap here and there.
    for (std::size_t i = 0; i + 1 < standing.size(); i += 2) {
      if (rng() % 2) std::swap(standing[i], standing[i + 1]);
    }
  }
  CHECK(repeats == 0);
}

TEST_CASE("Seat order: who began least begins, then each seat to who sat there least") {
  History history;
  history.add_table({1, 2, 3, 4});
  history.add_table({2, 3, 4, 1});
  history.add_table({3, 4, 1, 2});
  // 1, 2 and 3 each began once; 4 never did.
  const auto seats = seat_order({1, 2, 3, 4}, history, 5);
  CHECK(seats[0] == 4);

  // Over four games at one table of four, everyone begins exactly once.
  History rotation;
  for (int game = 0; game < 4; ++game) rotation.add_table(seat_order({1, 2, 3, 4}, rotation, static_cast<std::uint64_t>(game)));
  for (PlayerId p = 1; p <= 4; ++p) {
    CHECK(rotation.starts(p) == 1);
    for (int seat = 0; seat < 4; ++seat) CHECK(rotation.in_seat(p, seat) == 1);
  }
}

TEST_CASE("Byes go to the lowest in the standing who have had the fewest") {
  History history;
  const std::vector<PlayerId> standing = field_of(7);
  CHECK(choose_byes(standing, 2, history) == std::vector<PlayerId>{106, 105});
  history.add_bye(106);
  CHECK(choose_byes(standing, 2, history) == std::vector<PlayerId>{105, 104});
}

TEST_CASE("A round is a function of the standing, the history and the seed") {
  const std::vector<PlayerId> field = field_of(37);
  std::mt19937_64 rng(11);
  const History history = random_history(field, 3, rng);
  const RoundPlan a = swiss_round(field, {5, 3}, history, 99);
  const RoundPlan b = swiss_round(field, {5, 3}, history, 99);
  CHECK(a.tables == b.tables);
  CHECK(a.byes == b.byes);
}
