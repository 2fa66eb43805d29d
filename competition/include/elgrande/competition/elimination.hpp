#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "elgrande/competition/grouping.hpp"
#include "elgrande/competition/results.hpp"

// Multiplayer elimination: the best of every table go on, runners-up fill what the next
// round's tables need, down to one final table.
namespace elgrande::competition {

struct EliminationRules {
  int advance_per_table = 1;  // 1 ≤ k ≤ preferred size / 2, so every round shrinks the field
  TableSizes sizes;
  std::optional<std::string> problem() const;
};

// How many play the round after one of `tables` tables: the advancers (k per table) filled
// up to full tables of the preferred size; 0 after the final table.
int next_round_count(int tables, const EliminationRules& rules);

// Who plays the next round, best first: the top k of every table (ordered among them by
// percent of their winner's score, then place, then game score, then lot), then the
// runners-up ranked the same way until `next_round_count` is reached. Players in `out`
// (withdrawn, disqualified) are passed over. Empty after the final table.
std::vector<PlayerId> advancing(const std::vector<TableResult>& round, const EliminationRules& rules,
                                const std::unordered_set<PlayerId>& out, std::uint64_t seed);

// An elimination round's tables: the field snaked across the tables (so the best are spread
// out), seat order by `seat_order`.
RoundPlan elimination_round(const std::vector<PlayerId>& seeded, TableSizes sizes,
                            const History& history, std::uint64_t seed);

}  // namespace elgrande::competition
