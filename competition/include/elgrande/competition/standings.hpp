#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "elgrande/competition/results.hpp"

// Standings: tournament points from placings, then tie-breaks in the organiser's order,
// then a lot drawn from the event's seed, so no two players ever share a rank.
namespace elgrande::competition {

enum class TieBreak {
  tournament_points,
  sonneborn_berger,   // per game, per co-player: 2× their points if you placed above, 1× if tied
  percent_of_winner,  // average of your score as a share of your table winner's
  game_points,        // sum of final game scores
  wins,               // first places, shared ones included
};
std::string_view name(TieBreak tie_break);
std::optional<TieBreak> tie_break_named(std::string_view name);

// One round as played: its finished tables and who sat out with a bye.
struct RoundResults {
  std::vector<TableResult> tables;
  std::vector<PlayerId> byes;
};

struct Entrant {
  PlayerId player = 0;
  bool withdrawn = false;     // keeps their rank and results, plays no more
  bool disqualified = false;  // ranked below everyone else
  // The rating the event seeded the player by, fixed when it began: it orders players equal
  // on every tie-break before the lot does (higher first), so it orders round 1's field.
  // Equal for all (0 when the event seeds by lot): the lot alone decides.
  int seeding = 0;
};

struct ScoringRules {
  PlacementPoints placement = PlacementPoints::linear();
  Points bye = Points::halves(6);  // default: 3, the average a table hands out per player
  std::vector<TieBreak> order = {TieBreak::tournament_points, TieBreak::sonneborn_berger,
                                 TieBreak::percent_of_winner, TieBreak::game_points,
                                 TieBreak::wins};
  std::uint64_t seed = 0;  // the event's: draws the lot that settles a complete tie
};

struct Standing {
  PlayerId player = 0;
  int rank = 0;  // 1-based and unique
  Points points;
  Points sonneborn_berger;
  double percent_of_winner = 0;  // average over games played; 0 before the first
  std::int64_t game_points = 0;
  int wins = 0;
  int played = 0;
  int byes = 0;
  int forfeits = 0;
  bool withdrawn = false;
  bool disqualified = false;
  int seeding = 0;
  // Whether every tie-break in the order is equal to the row above (only the seeding or the
  // lot split them).
  bool tied_with_previous = false;
};

// Whether only the seeding or the lot can split the two rows: every tie-break of the order is
// equal.
bool equal_on_tie_breaks(const Standing& a, const Standing& b, const ScoringRules& rules);

// Everyone in `entrants`, best first. Results of players not among the entrants still count
// for their co-players' Sonneborn–Berger.
std::vector<Standing> standings(const std::vector<Entrant>& entrants,
                                const std::vector<RoundResults>& rounds, const ScoringRules& rules);

}  // namespace elgrande::competition
