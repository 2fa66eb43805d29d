#include "elgrande/competition/standings.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

#include "elgrande/competition/draw.hpp"

namespace elgrande::competition {

namespace {
constexpr std::array<std::pair<TieBreak, std::string_view>, 5> names{{
    {TieBreak::tournament_points, "tournament_points"},
    {TieBreak::sonneborn_berger, "sonneborn_berger"},
    {TieBreak::percent_of_winner, "percent_of_winner"},
    {TieBreak::game_points, "game_points"},
    {TieBreak::wins, "wins"},
}};

struct Tally {
  Standing row;
  double percent_sum = 0;
};

// Percentages are compared in millionths of a percent, so the order of summing cannot split
// two equal averages.
std::int64_t comparable_percent(double percent) { return std::llround(percent * 1e6); }

// Greater is better.
std::int64_t measure(const Standing& s, TieBreak tie_break) {
  switch (tie_break) {
    case TieBreak::tournament_points: return s.points.n;
    case TieBreak::sonneborn_berger: return s.sonneborn_berger.n;
    case TieBreak::percent_of_winner: return comparable_percent(s.percent_of_winner);
    case TieBreak::game_points: return s.game_points;
    case TieBreak::wins: return s.wins;
  }
  return 0;
}
}  // namespace

std::string_view name(TieBreak tie_break) {
  for (const auto& [value, text] : names) {
    if (value == tie_break) return text;
  }
  return "";
}

std::optional<TieBreak> tie_break_named(std::string_view text) {
  for (const auto& [value, known] : names) {
    if (known == text) return value;
  }
  return std::nullopt;
}

bool equal_on_tie_breaks(const Standing& a, const Standing& b, const ScoringRules& rules) {
  return a.disqualified == b.disqualified &&
         std::all_of(rules.order.begin(), rules.order.end(),
                     [&](TieBreak k) { return measure(a, k) == measure(b, k); });
}

std::vector<Standing> standings(const std::vector<Entrant>& entrants,
                                const std::vector<RoundResults>& rounds, const ScoringRules& rules) {
  std::unordered_map<PlayerId, Tally> tally;
  for (const Entrant& e : entrants) {
    Standing& row = tally[e.player].row;
    row.player = e.player;
    row.withdrawn = e.withdrawn;
    row.disqualified = e.disqualified;
    row.seeding = e.seeding;
  }
  std::vector<std::vector<Placing>> placed;  // per table, in the order of `rounds`
  for (const RoundResults& round : rounds) {
    for (PlayerId player : round.byes) {
      tally[player].row.points += rules.bye;
      ++tally[player].row.byes;
    }
    for (const TableResult& table : round.tables) {
      placed.push_back(placings(table, rules.placement));
      for (std::size_t seat = 0; seat < table.seats.size(); ++seat) {
        const Placing& p = placed.back()[seat];
        Tally& t = tally[table.seats[seat]];
        t.row.points += p.points;
        ++t.row.played;
        t.percent_sum += percent_of_winner(table, seat);
        if (p.forfeit) {
          ++t.row.forfeits;
        } else {
          t.row.game_points += table.scores[seat];
          if (p.place == 0) ++t.row.wins;
        }
      }
    }
  }
  // Sonneborn–Berger reads every co-player's final points, so it waits for all of them.
  std::size_t next = 0;
  for (const RoundResults& round : rounds) {
    for (const TableResult& table : round.tables) {
      const std::vector<Placing>& p = placed[next++];
      for (std::size_t me = 0; me < table.seats.size(); ++me) {
        Standing& mine = tally[table.seats[me]].row;
        for (std::size_t other = 0; other < table.seats.size(); ++other) {
          if (other == me) continue;
          const Points theirs = tally[table.seats[other]].row.points;
          if (p[me].place < p[other].place) mine.sonneborn_berger += 2 * theirs;
          if (p[me].place == p[other].place) mine.sonneborn_berger += theirs;
        }
      }
    }
  }

  std::vector<Standing> rows;
  rows.reserve(entrants.size());
  for (const Entrant& e : entrants) {
    Tally& t = tally[e.player];
    if (t.row.played > 0) t.row.percent_of_winner = t.percent_sum / t.row.played;
    rows.push_back(t.row);
  }
  std::sort(rows.begin(), rows.end(), [&](const Standing& a, const Standing& b) {
    if (a.disqualified != b.disqualified) return b.disqualified;
    for (TieBreak k : rules.order) {
      const auto ma = measure(a, k), mb = measure(b, k);
      if (ma != mb) return ma > mb;
    }
    if (a.seeding != b.seeding) return a.seeding > b.seeding;
    const auto la = lot(rules.seed, static_cast<std::uint64_t>(a.player));
    const auto lb = lot(rules.seed, static_cast<std::uint64_t>(b.player));
    return la != lb ? la < lb : a.player < b.player;
  });
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].rank = static_cast<int>(i) + 1;
    rows[i].tied_with_previous = i > 0 && equal_on_tie_breaks(rows[i - 1], rows[i], rules);
  }
  return rows;
}

}  // namespace elgrande::competition
