#include "elgrande/competition/elimination.hpp"

#include <algorithm>
#include <tuple>

#include "elgrande/competition/draw.hpp"

namespace elgrande::competition {

std::optional<std::string> EliminationRules::problem() const {
  if (auto wrong = sizes.problem()) return wrong;
  if (advance_per_table < 1 || advance_per_table > sizes.preferred / 2) {
    return "between 1 and " + std::to_string(sizes.preferred / 2) + " players per table may advance";
  }
  return std::nullopt;
}

int next_round_count(int tables, const EliminationRules& rules) {
  if (tables <= 1) return 0;
  const int advancers = rules.advance_per_table * tables;
  const int preferred = rules.sizes.preferred;
  return std::max(1, (advancers + preferred - 1) / preferred) * preferred;
}

namespace {
struct Candidate {
  PlayerId player;
  double percent;
  int place;
  int score;
  std::uint64_t lot;
  auto key() const { return std::tuple{-percent, place, -score, lot}; }
};
bool better(const Candidate& a, const Candidate& b) { return a.key() < b.key(); }
}  // namespace

std::vector<PlayerId> advancing(const std::vector<TableResult>& round, const EliminationRules& rules,
                                const std::unordered_set<PlayerId>& out, std::uint64_t seed) {
  const int target = next_round_count(static_cast<int>(round.size()), rules);
  std::vector<Candidate> advancers, runners_up;
  for (const TableResult& table : round) {
    const std::vector<Placing> placed = placings(table, PlacementPoints::linear());
    std::vector<Candidate> seats;
    for (std::size_t s = 0; s < table.seats.size(); ++s) {
      if (out.contains(table.seats[s])) continue;
      seats.push_back({table.seats[s], percent_of_winner(table, s), placed[s].place,
                       table.forfeit(s) ? 0 : table.scores[s], lot(seed, static_cast<std::uint64_t>(table.seats[s]))});
    }
    std::sort(seats.begin(), seats.end(), [](const Candidate& a, const Candidate& b) {
      return std::tuple{a.place, a.key()} < std::tuple{b.place, b.key()};
    });
    for (std::size_t i = 0; i < seats.size(); ++i) {
      (static_cast<int>(i) < rules.advance_per_table ? advancers : runners_up).push_back(seats[i]);
    }
  }
  std::sort(advancers.begin(), advancers.end(), better);
  std::sort(runners_up.begin(), runners_up.end(), better);
  std::vector<PlayerId> next;
  for (const auto* group : {&advancers, &runners_up}) {
    for (const Candidate& c : *group) {
      if (static_cast<int>(next.size()) < target) next.push_back(c.player);
    }
  }
  // Withdrawals may leave a count no tables fit; the last in line then go out too.
  while (!next.empty() && seating(static_cast<int>(next.size()), rules.sizes).byes > 0) next.pop_back();
  return next;
}

RoundPlan elimination_round(const std::vector<PlayerId>& seeded, TableSizes sizes,
                            const History& history, std::uint64_t seed) {
  const Seating plan = seating(static_cast<int>(seeded.size()), sizes);
  RoundPlan round;
  round.tables.resize(plan.tables.size());
  // Snake order: row by row, alternating direction, skipping tables already full.
  std::vector<std::size_t> slots;
  const int widest = plan.tables.empty() ? 0 : plan.tables.front();
  for (int row = 0; row < widest; ++row) {
    std::vector<std::size_t> tables;
    for (std::size_t t = 0; t < plan.tables.size(); ++t) {
      if (plan.tables[t] > row) tables.push_back(t);
    }
    if (row % 2 == 1) std::reverse(tables.begin(), tables.end());
    slots.insert(slots.end(), tables.begin(), tables.end());
  }
  std::size_t i = 0;
  for (; i < slots.size(); ++i) round.tables[slots[i]].push_back(seeded[i]);
  round.byes.assign(seeded.begin() + static_cast<std::ptrdiff_t>(i), seeded.end());
  for (std::size_t t = 0; t < round.tables.size(); ++t) {
    round.tables[t] = seat_order(std::move(round.tables[t]), history, lot(seed, t + 1));
  }
  return round;
}

}  // namespace elgrande::competition
