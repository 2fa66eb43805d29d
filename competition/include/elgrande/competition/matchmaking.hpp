#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "elgrande/competition/results.hpp"

// "Play now": which waiting players to seat together. Players close in rating sit
// together; the rating spread a player accepts widens the longer they wait, and one who
// welcomes bots gets a table filled with bots after a while. Plain values: the server
// keeps the queue and the clock, and asks this library what to make of it.
namespace elgrande::competition {

struct Seeker {
  PlayerId player = 0;
  int rating = 0;               // the shown rating on the queue's ladder
  std::int64_t waited_ms = 0;   // since joining the queue
  // Bots may fill the seats nobody takes once the seeker has waited this long; none: never.
  std::optional<std::int64_t> bots_after_ms;
  bool bots_welcome() const { return bots_after_ms.has_value(); }
};

struct MatchRules {
  int players = 4;             // seats per table
  int spread = 100;            // the rating spread everyone accepts at once
  int widen_per_minute = 200;  // and how it grows with waiting
  int max_spread = 1000;       // never wider
};

// The spread of ratings `seeker` accepts at a table after waiting as long as they have.
int accepted_spread(const Seeker& seeker, const MatchRules& rules);

struct Match {
  std::vector<PlayerId> players;  // lowest rating first
  int bots = 0;                   // seats for bots; players + bots = rules.players
  friend bool operator==(const Match&, const Match&) = default;
};

// The tables to make now. Who waited longest is served first: of the groups of
// rules.players waiting players that include them and whose spread (highest rating minus
// lowest) each member accepts, the one with the smallest spread (then the longest waits).
// If there is none and they have waited as long as they would for people before bots, they
// sit with the closest others who welcome bots and are within everyone's spread, and bots
// fill the rest.
// Nobody is seated twice; everyone else keeps waiting.
std::vector<Match> match(const std::vector<Seeker>& queue, const MatchRules& rules);

}  // namespace elgrande::competition
