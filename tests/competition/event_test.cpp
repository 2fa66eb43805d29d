#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <map>
#include <set>

#include "elgrande/competition/draw.hpp"
#include "elgrande/competition/event.hpp"

using namespace elgrande::competition;

namespace {

Event event_of(int players, std::vector<Stage> stages, std::uint64_t seed) {
  Event event;
  event.stages = std::move(stages);
  event.scoring.seed = seed;
  for (PlayerId p = 1; p <= players; ++p) event.entrants.push_back({p});
  return event;
}

// Plays the round: random final scores at every table.
void play(Event& event, const NextRound& next, std::mt19937_64& rng) {
  Round round{next.stage, next.plan, {}};
  for (const auto& table : next.plan.tables) {
    TableResult result{table, {}, {}};
    for (std::size_t s = 0; s < table.size(); ++s) result.scores.push_back(40 + static_cast<int>(rng() % 80));
    round.results.push_back(result);
  }
  event.rounds.push_back(round);
}

void withdraw(Event& event, PlayerId player) {
  for (Entrant& e : event.entrants) {
    if (e.player == player) e.withdrawn = true;
  }
}

std::set<PlayerId> seated(const RoundPlan& plan) {
  std::set<PlayerId> players(plan.byes.begin(), plan.byes.end());
  for (const auto& table : plan.tables) players.insert(table.begin(), table.end());
  return players;
}

}  // namespace

TEST_CASE("A 64-player Swiss of 4 rounds at tables of 4 and 5, with 3 withdrawals, plays out") {
  Stage swiss;
  swiss.sizes = {5, 4};
  swiss.rounds = 4;
  Event event = event_of(64, {swiss}, 64);
  REQUIRE_FALSE(problem(event.stages));
  std::mt19937_64 rng(64);
  int rounds = 0;
  std::set<PlayerId> gone;
  while (const auto next = next_round(event)) {
    ++rounds;
    std::set<PlayerId> expected;
    for (PlayerId p = 1; p <= 64; ++p) {
      if (!gone.contains(p)) expected.insert(p);
    }
    CHECK(seated(next->plan) == expected);  // everyone still in, once; nobody who left
    CHECK(repeated_meetings(next->plan.tables, [&] {
            History h;
            for (const Round& r : event.rounds) {
              for (const auto& t : r.plan.tables) h.add_table(t);
            }
            return h;
          }()) == 0);
    play(event, *next, rng);
    // Three players leave after rounds 1 and 2.
    if (rounds == 1) {
      withdraw(event, 7);
      gone.insert(7);
    }
    if (rounds == 2) {
      withdraw(event, 8);
      withdraw(event, 40);
      gone.insert({8, 40});
    }
  }
  CHECK(rounds == 4);
  const auto rows = event_standings(event);
  CHECK(rows.size() == 64);
  for (std::size_t i = 1; i < rows.size(); ++i) CHECK(rows[i - 1].points >= rows[i].points);
  const auto left = std::find_if(rows.begin(), rows.end(), [](const Standing& s) { return s.player == 7; });
  CHECK(left->withdrawn);
  CHECK(left->played == 1);
}

TEST_CASE("A Swiss seeded by rating seats the strongest together on board 1 in round 1, and by lot it does not") {
  Stage swiss;
  swiss.sizes = {4, 3};
  swiss.rounds = 2;
  Event event = event_of(12, {swiss}, 12);
  for (Entrant& e : event.entrants) e.seeding = 1000 + 10 * static_cast<int>(e.player);  // 12 is the best
  const auto seeded = next_round(event);
  REQUIRE(seeded);
  const std::vector<std::vector<PlayerId>> boards{{9, 10, 11, 12}, {5, 6, 7, 8}, {1, 2, 3, 4}};
  for (std::size_t b = 0; b < boards.size(); ++b) {
    std::vector<PlayerId> table = seeded->plan.tables[b];
    std::sort(table.begin(), table.end());
    CHECK(table == boards[b]);
  }
  for (Entrant& e : event.entrants) e.seeding = 0;
  const auto by_lot = next_round(event);
  REQUIRE(by_lot);
  std::vector<PlayerId> first = by_lot->plan.tables[0];
  std::sort(first.begin(), first.end());
  CHECK(first != boards[0]);  // the seed's lot, not the ratings
}

TEST_CASE("A round waits for every board: no next round while one is still played") {
  Stage swiss;
  swiss.sizes = {4, 3};
  Event event = event_of(8, {swiss}, 1);
  const auto first = next_round(event);
  REQUIRE(first);
  std::mt19937_64 rng(1);
  play(event, *first, rng);
  event.rounds.back().results[1].reset();
  CHECK_FALSE(next_round(event));
}

TEST_CASE("A 25-player elimination, top 2 per table, ends at one final table whose winner ranks first") {
  Stage elimination;
  elimination.format = Format::elimination;
  elimination.sizes = {5, 4};
  elimination.advance_per_table = 2;
  Event event = event_of(25, {elimination}, 25);
  std::mt19937_64 rng(25);
  std::vector<std::size_t> tables;
  while (const auto next = next_round(event)) {
    tables.push_back(next->plan.tables.size());
    CHECK(next->plan.byes.empty());
    play(event, *next, rng);
  }
  CHECK(tables == std::vector<std::size_t>{5, 2, 1});
  const Round& final_round = event.rounds.back();
  const auto placed = placings(*final_round.results[0], event.scoring.placement);
  const auto rows = event_standings(event);
  for (std::size_t s = 0; s < placed.size(); ++s) {
    if (placed[s].place == 0 && placed[s].tied == 1) CHECK(rows[0].player == final_round.plan.tables[0][s]);
  }
  // The final table's five rank above everyone who went out earlier.
  const std::set<PlayerId> finalists(final_round.plan.tables[0].begin(), final_round.plan.tables[0].end());
  for (std::size_t i = 0; i < rows.size(); ++i) CHECK(finalists.contains(rows[i].player) == (i < 5));
}

TEST_CASE("Stages chain: three Swiss heats, then the top 10 play an elimination down to a final") {
  Stage heats;
  heats.sizes = {5, 3};
  heats.rounds = 3;
  Stage final_stage;
  final_stage.format = Format::elimination;
  final_stage.sizes = {5, 4};
  final_stage.advance_per_table = 2;
  final_stage.qualifiers = 10;
  Event event = event_of(23, {heats, final_stage}, 9);
  std::mt19937_64 rng(9);
  std::vector<int> stages;
  std::set<PlayerId> top10;
  while (const auto next = next_round(event)) {
    if (next->stage == 1 && stages.back() == 0) {
      const auto rows = event_standings(event);
      for (int i = 0; i < 10; ++i) top10.insert(rows[static_cast<std::size_t>(i)].player);
      CHECK(seated(next->plan) == top10);
    }
    stages.push_back(next->stage);
    play(event, *next, rng);
  }
  CHECK(stages == std::vector<int>{0, 0, 0, 1, 1});
  CHECK(event.rounds[3].plan.tables.size() == 2);
  CHECK(event.rounds[4].plan.tables.size() == 1);
}

TEST_CASE("Round-robin pools: two pools of 8 at tables of 4, every pair within a pool meets") {
  Stage pools;
  pools.format = Format::round_robin;
  pools.sizes = {4, 4};
  pools.pools = 2;
  Event event = event_of(16, {pools}, 3);
  std::mt19937_64 rng(3);
  while (const auto next = next_round(event)) play(event, *next, rng);
  REQUIRE_FALSE(event.rounds.empty());
  History history;
  for (const Round& r : event.rounds) {
    for (const auto& t : r.plan.tables) history.add_table(t);
  }
  // Pools are snaked from the standing at the start: each player meets exactly 7 others.
  for (PlayerId p = 1; p <= 16; ++p) CHECK(history.opponents(p).size() == 7);
}

TEST_CASE("The next round is a function of the seed and the results: recomputed, it is the same") {
  Stage swiss;
  swiss.sizes = {5, 4};
  swiss.rounds = 3;
  Event event = event_of(30, {swiss}, 77);
  std::mt19937_64 rng(77);
  for (int r = 0; r < 2; ++r) play(event, *next_round(event), rng);
  const auto a = next_round(event);
  const Event copy = event;
  const auto b = next_round(copy);
  REQUIRE(a);
  CHECK(a->plan.tables == b->plan.tables);
  Event other = event;
  other.scoring.seed = 78;
  CHECK(next_round(other)->plan.tables != a->plan.tables);
}

TEST_CASE("Stages are checked: an elimination advancing more than half a table is refused") {
  Stage bad;
  bad.format = Format::elimination;
  bad.advance_per_table = 3;
  CHECK(problem({bad})->find("stage 1") != std::string::npos);
  CHECK(problem({}));
  CHECK(format_named("swiss") == Format::swiss);
  CHECK_FALSE(format_named("knockout"));
}

TEST_CASE("A withdrawal during a round robin keeps the pools: the others play the schedule as drawn") {
  Stage pools;
  pools.format = Format::round_robin;
  pools.sizes = {4, 3};
  pools.pools = 2;
  Event event = event_of(16, {pools}, 5);
  std::mt19937_64 rng(5);
  const auto first = next_round(event);
  REQUIRE(first);
  play(event, *first, rng);
  // The two pools as round 1 drew them: who sat with whom.
  std::map<PlayerId, int> pool_of;
  const Event untouched = event;
  Event replay = untouched;
  while (const auto next = next_round(replay)) play(replay, *next, rng);
  {
    History all;
    for (const Round& r : replay.rounds) {
      for (const auto& t : r.plan.tables) all.add_table(t);
    }
    int pool = 0;
    for (PlayerId p = 1; p <= 16; ++p) {
      if (pool_of.contains(p)) continue;
      pool_of[p] = ++pool;
      for (const auto& [other, count] : all.opponents(p)) pool_of[other] = pool;
    }
  }
  withdraw(event, 1);
  while (const auto next = next_round(event)) {
    for (const auto& table : next->plan.tables) {
      CHECK(std::find(table.begin(), table.end(), 1) == table.end());
      for (PlayerId p : table) CHECK(pool_of[p] == pool_of[table[0]]);  // nobody changes pool
    }
    play(event, *next, rng);
  }
  CHECK(event.rounds.size() == replay.rounds.size());
}

TEST_CASE("A round-robin round that withdrawals leave without a table is played as byes, and the rest follow") {
  Stage pool;
  pool.format = Format::round_robin;
  pool.sizes = {3, 3};
  Event event = event_of(6, {pool}, 11);
  std::mt19937_64 rng(11);
  Event full = event;
  while (const auto next = next_round(full)) play(full, *next, rng);
  REQUIRE(full.rounds.size() >= 3);
  // Before round 3, one player of each of its tables withdraws.
  for (int r = 0; r < 2; ++r) play(event, *next_round(event), rng);
  const auto third = full.rounds[2].plan.tables;
  withdraw(event, third[0][0]);
  withdraw(event, third[1][0]);
  const auto next = next_round(event);
  REQUIRE(next);
  CHECK(next->plan.tables.empty());
  CHECK(next->plan.byes.size() == 4);
  play(event, *next, rng);
  int later = 0;
  while (const auto more = next_round(event)) {
    ++later;
    play(event, *more, rng);
  }
  CHECK(static_cast<std::size_t>(later) == full.rounds.size() - 3);
}

TEST_CASE("An elimination stage seats only as many as whole tables fit: no byes, the lowest do not enter") {
  Stage elimination;
  elimination.format = Format::elimination;
  elimination.sizes = {5, 4};
  Event event = event_of(11, {elimination}, 2);
  const auto first = next_round(event);
  REQUIRE(first);
  CHECK(first->plan.byes.empty());
  CHECK(seated(first->plan).size() == 10);
}

TEST_CASE("A round is finished only with a result for every board") {
  Round round;
  round.plan.tables = {{1, 2, 3}};
  CHECK_FALSE(round.finished());
  round.results.push_back(TableResult{{1, 2, 3}, {1, 2, 3}, {}});
  CHECK(round.finished());
}

TEST_CASE("Pools are never smaller than a table: fewer pools than asked when the field is small") {
  Stage pools;
  pools.format = Format::round_robin;
  pools.sizes = {5, 4};
  pools.pools = 3;
  Event event = event_of(10, {pools}, 4);
  const auto first = next_round(event);
  REQUIRE(first);
  CHECK(seated(first->plan).size() == 10);
  CHECK(first->plan.byes.empty());
}

TEST_CASE("A disqualification during a round robin keeps the pools as they were drawn") {
  Stage pools;
  pools.format = Format::round_robin;
  pools.sizes = {4, 3};
  pools.pools = 2;
  Event event = event_of(16, {pools}, 8);
  std::mt19937_64 rng(8);
  play(event, *next_round(event), rng);
  Event undisturbed = event;
  const auto expected = next_round(undisturbed);
  REQUIRE(expected);
  const PlayerId first_seed = event_standings(event)[0].player;
  for (Entrant& e : event.entrants) {
    if (e.player == first_seed) e.disqualified = true;
  }
  const auto next = next_round(event);
  REQUIRE(next);
  // The same tables as without the disqualification, less the disqualified player (whose
  // table-mates are seated anew by the seat rule, so only who sits there is compared).
  std::vector<std::set<PlayerId>> without;
  for (auto table : expected->plan.tables) {
    std::erase(table, first_seed);
    without.emplace_back(table.begin(), table.end());
  }
  std::vector<std::set<PlayerId>> got;
  for (const auto& table : next->plan.tables) got.emplace_back(table.begin(), table.end());
  std::erase_if(without, [&](const auto& t) { return static_cast<int>(t.size()) < pools.sizes.minimum; });
  CHECK(got == without);
}

TEST_CASE("After a withdrawal in a round robin, the player who began the fewest games so far still begins") {
  // Checks every table of a round against the games played so far.
  const auto fewest_begin = [](const Event& event, const RoundPlan& plan) {
    History so_far;
    for (const Round& round : event.rounds) {
      for (const auto& table : round.plan.tables) so_far.add_table(table);
    }
    for (const auto& table : plan.tables) {
      INFO("round " << event.rounds.size() + 1 << ", begins: player " << table[0]);
      for (PlayerId p : table) CHECK(so_far.starts(table[0]) <= so_far.starts(p));
    }
  };
  SECTION("one table of five playing five games; the player in seat 2 of the first withdraws after it") {
    Stage pool;
    pool.format = Format::round_robin;
    pool.sizes = {5, 3};
    pool.meetings = 5;
    Event event = event_of(5, {pool}, 3);
    std::mt19937_64 rng(3);
    const auto first = next_round(event);
    REQUIRE(first);
    play(event, *first, rng);
    withdraw(event, first->plan.tables[0][1]);
    int rounds = 1;
    while (const auto next = next_round(event)) {
      fewest_begin(event, next->plan);
      play(event, *next, rng);
      ++rounds;
    }
    CHECK(rounds == 5);
    // Four players left for four more games: each of them began exactly one game in all
    // (the first game's beginner is one of them, unless they withdrew).
    History all;
    for (const Round& round : event.rounds) all.add_table(round.plan.tables[0]);
    for (PlayerId p = 1; p <= 5; ++p) {
      if (p != first->plan.tables[0][1]) CHECK(all.starts(p) >= 1);
    }
  }
  SECTION("searched pools of 7 at tables of 3 and 4, a withdrawal after each of the first rounds") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      Stage pool;
      pool.format = Format::round_robin;
      pool.sizes = {4, 3};
      Event event = event_of(7, {pool}, seed);
      std::mt19937_64 rng(seed);
      int round = 0;
      while (const auto next = next_round(event)) {
        fewest_begin(event, next->plan);
        play(event, *next, rng);
        if (++round <= 2 && !next->plan.tables.empty()) withdraw(event, next->plan.tables[0][static_cast<std::size_t>(round)]);
      }
    }
  }
}
