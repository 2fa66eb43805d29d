#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>

#include "elgrande/competition/matchmaking.hpp"

using namespace elgrande::competition;

namespace {

// With `bots`, the seeker lets bots fill after a minute.
Seeker seeker(PlayerId player, int rating, std::int64_t waited_ms = 0, bool bots = false) {
  return {player, rating, waited_ms, bots ? std::optional<std::int64_t>(60'000) : std::nullopt};
}

}  // namespace

TEST_CASE("Four players close in rating are seated together at once") {
  const MatchRules rules;  // 4 seats, 100 points at first
  CHECK(match({seeker(1, 1000), seeker(2, 1040), seeker(3, 1090), seeker(4, 1010)}, rules) ==
        std::vector<Match>{{{1, 4, 2, 3}, 0}});
  CHECK(match({seeker(1, 1000), seeker(2, 1040), seeker(3, 1090)}, rules).empty());  // one short
}

TEST_CASE("Players far apart wait, and the spread they accept widens with waiting until they meet") {
  const MatchRules rules;  // +200 points a minute
  const std::vector<Seeker> now{seeker(1, 1000), seeker(2, 1100), seeker(3, 1200), seeker(4, 1300)};
  CHECK(match(now, rules).empty());
  CHECK(accepted_spread(seeker(1, 1000, 30'000), rules) == 200);
  std::vector<Seeker> later = now;
  for (Seeker& s : later) s.waited_ms = 61'000;
  CHECK(match(later, rules).size() == 1);
  // Everyone must accept the spread: one newcomer among long waiters keeps the table from forming.
  later[3].waited_ms = 0;
  CHECK(match(later, rules).empty());
  CHECK(accepted_spread(seeker(1, 1000, 3'600'000), rules) == rules.max_spread);
}

TEST_CASE("Who waited longest is served first, with the closest group around them") {
  MatchRules rules;
  rules.players = 2;
  // 2 waited longest: of 1 (20 apart) and 3 (10 apart), the nearer one joins.
  const auto made = match({seeker(1, 980), seeker(2, 1000, 50'000), seeker(3, 1010), seeker(4, 2000)}, rules);
  REQUIRE(made.size() == 1);
  CHECK(made[0].players == std::vector<PlayerId>{2, 3});
}

TEST_CASE("After the bot wait, a player who welcomes bots plays with the nearest such players and bots") {
  MatchRules rules;  // 4 seats
  const std::vector<Seeker> queue{seeker(1, 1000, 61'000, true), seeker(2, 1050, 5'000, true), seeker(3, 1030, 5'000, false),
                                  seeker(4, 3000, 5'000, true)};
  const auto made = match(queue, rules);
  REQUIRE(made.size() == 1);
  CHECK(made[0] == Match{{1, 2}, 2});  // 3 does not welcome bots, 4 is too far
  std::vector<Seeker> unwilling = queue;
  unwilling[0].bots_after_ms.reset();
  CHECK(match(unwilling, rules).empty());
  std::vector<Seeker> early = queue;
  early[0].waited_ms = 59'000;
  CHECK(match(early, rules).empty());
}

TEST_CASE("Thousands of random queues: nobody seated twice, full tables, every spread accepted by every member") {
  std::mt19937_64 rng(15);
  std::set<std::size_t> sizes_seen;
  for (int trial = 0; trial < 2000; ++trial) {
    MatchRules rules;
    rules.players = 2 + static_cast<int>(rng() % 4);
    const int count = static_cast<int>(rng() % 40);
    std::vector<Seeker> queue;
    for (int i = 0; i < count; ++i) {
      queue.push_back(seeker(i + 1, 600 + static_cast<int>(rng() % 1200), static_cast<std::int64_t>(rng() % 180'000),
                             rng() % 2 == 0));
    }
    const auto made = match(queue, rules);
    INFO("trial " << trial);
    std::set<PlayerId> seated;
    for (const Match& m : made) {
      REQUIRE(static_cast<int>(m.players.size()) + m.bots == rules.players);
      REQUIRE_FALSE(m.players.empty());
      int low = 1 << 30;
      int high = 0;
      for (PlayerId p : m.players) {
        REQUIRE(seated.insert(p).second);
        low = std::min(low, queue[static_cast<std::size_t>(p - 1)].rating);
        high = std::max(high, queue[static_cast<std::size_t>(p - 1)].rating);
      }
      for (PlayerId p : m.players) {
        const Seeker& s = queue[static_cast<std::size_t>(p - 1)];
        CHECK(accepted_spread(s, rules) >= high - low);
        if (m.bots > 0) CHECK(s.bots_welcome());
      }
      sizes_seen.insert(m.players.size());
    }
    // A table is made from the same queue every time.
    CHECK(match(queue, rules) == made);
  }
  CHECK(sizes_seen.size() >= 4);  // full tables and tables with bots of every size met
}
