#include "elgrande/competition/event.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "elgrande/competition/draw.hpp"

namespace elgrande::competition {

namespace {

constexpr std::array<std::pair<Format, std::string_view>, 3> format_names{{
    {Format::swiss, "swiss"},
    {Format::round_robin, "round_robin"},
    {Format::elimination, "elimination"},
}};

std::vector<TableResult> results_of(const Round& round) {
  std::vector<TableResult> tables;
  for (const auto& r : round.results) {
    if (r) tables.push_back(*r);
  }
  return tables;
}

std::vector<RoundResults> played(const std::vector<Round>& rounds) {
  std::vector<RoundResults> result;
  for (const Round& round : rounds) result.push_back({results_of(round), round.plan.byes});
  return result;
}

std::unordered_set<PlayerId> out_of(const Event& event) {
  std::unordered_set<PlayerId> out;
  for (const Entrant& e : event.entrants) {
    if (e.withdrawn || e.disqualified) out.insert(e.player);
  }
  return out;
}

History history_of(const std::vector<Round>& rounds) {
  History history;
  for (const Round& round : rounds) {
    for (const auto& table : round.plan.tables) history.add_table(table);
    for (PlayerId p : round.plan.byes) history.add_bye(p);
  }
  return history;
}

std::vector<PlayerId> in_order(const std::vector<Standing>& rows) {
  std::vector<PlayerId> players;
  for (const Standing& row : rows) players.push_back(row.player);
  return players;
}

// The event as it was before round `index` (0-based) was played.
Event before(const Event& event, std::size_t index) {
  Event earlier = event;
  earlier.rounds.resize(index);
  return earlier;
}

// Who entered stage `stage`, which begins with round `first` (0-based), best first by the
// standings as it began: once it has begun, its first round says who; before, the top
// `qualifiers` (or everyone) still in.
std::vector<PlayerId> entered_stage(const Event& event, int stage, std::size_t first) {
  Event start = before(event, first);
  const auto was_out = out_of(start);
  const bool begun = first < event.rounds.size();
  std::unordered_set<PlayerId> in_first;
  if (begun) {
    const RoundPlan& plan = event.rounds[first].plan;
    for (const auto& table : plan.tables) in_first.insert(table.begin(), table.end());
    in_first.insert(plan.byes.begin(), plan.byes.end());
    // Nobody who entered was disqualified then: a later disqualification must not move
    // them down the order the stage began with.
    for (Entrant& e : start.entrants) {
      if (in_first.contains(e.player)) e.disqualified = false;
    }
  }
  const int qualifiers = event.stages[static_cast<std::size_t>(stage)].qualifiers;
  std::vector<PlayerId> players;
  for (PlayerId p : in_order(event_standings(start))) {
    // Withdrawals since the stage began must not change who entered it (nor its pools).
    if (begun ? !in_first.contains(p) : was_out.contains(p) ||
                                            (qualifiers > 0 && static_cast<int>(players.size()) >= qualifiers)) {
      continue;
    }
    players.push_back(p);
  }
  return players;
}

std::vector<std::vector<RoundPlan>> pool_schedules(const Event& event, int stage, std::size_t first) {
  const Stage& rules = event.stages[static_cast<std::size_t>(stage)];
  std::vector<std::vector<RoundPlan>> schedules;
  const auto entered = entered_stage(event, stage, first);
  // No pool smaller than a table: fewer pools than asked for if the field is small.
  const int most = std::max(1, static_cast<int>(entered.size()) / rules.sizes.minimum);
  const auto pools = split_into_pools(entered, std::min(rules.pools, most));
  for (std::size_t i = 0; i < pools.size(); ++i) {
    schedules.push_back(round_robin(pools[i], rules.sizes, rules.meetings,
                                    lot(event.scoring.seed, 1000 * static_cast<std::uint64_t>(stage + 1) + i)));
  }
  return schedules;
}

// Round `r` of the pools, less those out: a table left too small sits out with byes.
RoundPlan pool_round(const std::vector<std::vector<RoundPlan>>& schedules, std::size_t r,
                     const std::unordered_set<PlayerId>& out, TableSizes sizes) {
  RoundPlan plan;
  for (const auto& schedule : schedules) {
    if (r >= schedule.size()) continue;
    for (auto table : schedule[r].tables) {
      std::erase_if(table, [&](PlayerId p) { return out.contains(p); });
      if (static_cast<int>(table.size()) >= sizes.minimum) {
        plan.tables.push_back(std::move(table));
      } else {
        plan.byes.insert(plan.byes.end(), table.begin(), table.end());
      }
    }
    for (PlayerId p : schedule[r].byes) {
      if (!out.contains(p)) plan.byes.push_back(p);
    }
  }
  return plan;
}

}  // namespace

std::string_view name(Format format) {
  for (const auto& [value, text] : format_names) {
    if (value == format) return text;
  }
  return "";
}

std::optional<Format> format_named(std::string_view text) {
  for (const auto& [value, known] : format_names) {
    if (known == text) return value;
  }
  return std::nullopt;
}

std::optional<std::string> Stage::problem() const {
  if (auto wrong = sizes.problem()) return wrong;
  if (qualifiers < 0) return "qualifiers cannot be negative";
  switch (format) {
    case Format::swiss:
      if (rounds < 1 || rounds > 50) return "a Swiss stage plays 1 to 50 rounds";
      break;
    case Format::round_robin:
      if (pools < 1 || pools > 1000) return "a round robin has 1 to 1000 pools";
      if (meetings < 1 || meetings > 10) return "players of a pool meet 1 to 10 times";
      break;
    case Format::elimination:
      return EliminationRules{advance_per_table, sizes}.problem();
  }
  return std::nullopt;
}

std::optional<std::string> problem(const std::vector<Stage>& stages) {
  if (stages.empty() || stages.size() > 8) return "an event has 1 to 8 stages";
  for (std::size_t i = 0; i < stages.size(); ++i) {
    if (auto wrong = stages[i].problem()) return "stage " + std::to_string(i + 1) + ": " + *wrong;
  }
  return std::nullopt;
}

bool Round::finished() const {
  return results.size() == plan.tables.size() && std::all_of(results.begin(), results.end(), [](const auto& r) { return r.has_value(); });
}

std::uint64_t round_seed(std::uint64_t event_seed, int number) {
  return lot(event_seed, static_cast<std::uint64_t>(number));
}

std::vector<Standing> event_standings(const Event& event) {
  std::vector<Standing> rows = standings(event.entrants, played(event.rounds), event.scoring);
  // How far each player came in elimination: the last elimination round they played, and
  // their place at a finished final table.
  std::unordered_map<PlayerId, std::pair<int, int>> reached;  // (round, −place)
  for (std::size_t i = 0; i < event.rounds.size(); ++i) {
    const Round& round = event.rounds[i];
    if (event.stages[static_cast<std::size_t>(round.stage)].format != Format::elimination) continue;
    const bool final_table = round.plan.tables.size() == 1 && round.finished();
    for (std::size_t t = 0; t < round.plan.tables.size(); ++t) {
      if (final_table) {
        const TableResult& result = *round.results[t];
        const std::vector<Placing> placed = placings(result, event.scoring.placement);
        for (std::size_t s = 0; s < result.seats.size(); ++s) {
          reached[result.seats[s]] = {static_cast<int>(i) + 1, -placed[s].place};
        }
      } else {
        for (PlayerId p : round.plan.tables[t]) reached[p] = {static_cast<int>(i) + 1, 0};
      }
    }
  }
  if (reached.empty()) return rows;
  const auto key = [&](const Standing& row) {
    const auto it = reached.find(row.player);
    return it == reached.end() ? std::pair{0, 0} : it->second;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const Standing& a, const Standing& b) {
    if (a.disqualified != b.disqualified) return b.disqualified;
    return key(a) > key(b);
  });
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].rank = static_cast<int>(i) + 1;
    rows[i].tied_with_previous = i > 0 && key(rows[i]) == key(rows[i - 1]) &&
                                 equal_on_tie_breaks(rows[i - 1], rows[i], event.scoring);
  }
  return rows;
}

std::optional<NextRound> next_round(const Event& event) {
  if (!event.rounds.empty() && !event.rounds.back().finished()) return std::nullopt;
  const auto out = out_of(event);
  const History history = history_of(event.rounds);
  const int number = static_cast<int>(event.rounds.size()) + 1;
  const std::uint64_t seed = round_seed(event.scoring.seed, number);

  int stage = event.rounds.empty() ? 0 : event.rounds.back().stage;
  // Whether the current stage continues: each format says what its next round is, if any.
  for (; stage < static_cast<int>(event.stages.size()); ++stage) {
    const Stage& rules = event.stages[static_cast<std::size_t>(stage)];
    std::size_t first = event.rounds.size();
    int played_in_stage = 0;
    for (std::size_t i = 0; i < event.rounds.size(); ++i) {
      if (event.rounds[i].stage != stage) continue;
      first = std::min(first, i);
      ++played_in_stage;
    }
    std::optional<RoundPlan> plan;
    switch (rules.format) {
      case Format::swiss: {
        if (played_in_stage >= rules.rounds) break;
        // Ordered by the standings now, not as the stage began.
        std::vector<PlayerId> standing;
        const auto list = entered_stage(event, stage, first);
        const std::unordered_set<PlayerId> entered(list.begin(), list.end());
        for (PlayerId p : in_order(event_standings(event))) {
          if (!out.contains(p) && entered.contains(p)) standing.push_back(p);
        }
        plan = swiss_round(standing, rules.sizes, history, seed);
        break;
      }
      case Format::round_robin: {
        const auto schedules = pool_schedules(event, stage, first);
        std::size_t length = 0;
        for (const auto& schedule : schedules) length = std::max(length, schedule.size());
        if (static_cast<std::size_t>(played_in_stage) >= length) break;
        // A round that withdrawals left without a table is still played, as byes only, so
        // that the rounds after it keep their place in the schedule.
        plan = pool_round(schedules, static_cast<std::size_t>(played_in_stage), out, rules.sizes);
        // The schedule fixes who meets; who begins follows the seat rule round by round, from
        // the games as played: a withdrawal changes who has begun.
        std::uint64_t board = 0;
        for (auto& table : plan->tables) table = seat_order(std::move(table), history, lot(seed, ++board));
        if (!plan->tables.empty() || !plan->byes.empty()) return NextRound{stage, std::move(*plan)};
        break;
      }
      case Format::elimination: {
        const EliminationRules elimination{rules.advance_per_table, rules.sizes};
        std::vector<PlayerId> seeded;
        if (played_in_stage == 0) {
          // As many as whole tables fit; the lowest in the standing beyond them do not enter.
          seeded = entered_stage(event, stage, first);
          while (!seeded.empty() && seating(static_cast<int>(seeded.size()), rules.sizes).byes > 0) seeded.pop_back();
        } else {
          seeded = advancing(results_of(event.rounds.back()), elimination, out,
                             round_seed(event.scoring.seed, number - 1));
        }
        if (!seeded.empty()) plan = elimination_round(seeded, rules.sizes, history, seed);
        break;
      }
    }
    if (plan && !plan->tables.empty()) return NextRound{stage, std::move(*plan)};
  }
  return std::nullopt;
}

}  // namespace elgrande::competition
