// Times Swiss rounds for a large field: each round groups the players by their standing
// (random results decide it), so later rounds must avoid the meetings of earlier ones.
// Usage: elgrande-grouping-bench [players=4000] [rounds=7] [preferred=5] [minimum=4]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

#include "elgrande/competition/draw.hpp"
#include "elgrande/competition/grouping.hpp"
#include "elgrande/competition/standings.hpp"

using namespace elgrande::competition;

int main(int argc, char** argv) {
  const int players = argc > 1 ? std::atoi(argv[1]) : 4000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  const TableSizes sizes{argc > 3 ? std::atoi(argv[3]) : 5, argc > 4 ? std::atoi(argv[4]) : 4};
  const std::uint64_t seed = 2026;

  std::vector<PlayerId> field;
  for (int p = 1; p <= players; ++p) field.push_back(p);
  std::vector<Entrant> entrants;
  for (PlayerId p : field) entrants.push_back({p});
  std::vector<RoundResults> results;
  History history;
  const ScoringRules rules{.seed = seed};

  for (int r = 1; r <= rounds; ++r) {
    std::vector<PlayerId> standing;
    if (r == 1) {
      standing = shuffled(field, seed);
    } else {
      for (const Standing& s : standings(entrants, results, rules)) standing.push_back(s.player);
    }
    const auto start = std::chrono::steady_clock::now();
    const RoundPlan plan = swiss_round(standing, sizes, history, lot(seed, static_cast<std::uint64_t>(r)));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("{\"round\": %d, \"players\": %d, \"tables\": %zu, \"byes\": %zu, \"grouping_ms\": %.1f, "
                "\"repeated_meetings\": %d}\n",
                r, players, plan.tables.size(), plan.byes.size(), ms, repeated_meetings(plan.tables, history));

    RoundResults round{{}, plan.byes};
    for (const auto& table : plan.tables) {
      TableResult result{table, {}, {}};
      for (PlayerId p : table) result.scores.push_back(static_cast<int>(lot(seed + static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(p)) % 120));
      round.tables.push_back(result);
      history.add_table(table);
    }
    for (PlayerId p : plan.byes) history.add_bye(p);
    results.push_back(round);
  }
}
