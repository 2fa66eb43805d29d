#pragma once

#include <cstdint>
#include <vector>

#include "elgrande/competition/grouping.hpp"

// Round-robin pools: the field split into pools, and within each pool a schedule of rounds
// in which everyone meets everyone a set number of times, with seat order balanced.
namespace elgrande::competition {

// `seeded` (best first: by rating, or shuffled by the seed) snaked into `pools` pools whose
// sizes differ by at most one: 1st → A, 2nd → B, 3rd → B, 4th → A, 5th → A, ...
std::vector<std::vector<PlayerId>> split_into_pools(const std::vector<PlayerId>& seeded, int pools);

// The rounds of one pool, in which every pair meets at least `meetings` times:
// - a pool that fits one table plays `meetings` games at it, the seat order rotating so that
//   with as many games as players each begins once;
// - 9, 16 or 25 players at tables of 3, 4 or 5 play an affine plane: each round seats
//   everyone, and every pair meets exactly once per `q + 1` rounds;
// - any other count is searched: round after round, the grouping that repeats the fewest
//   meetings, until every pair has met; the best of several seeded tries is kept (fewest
//   rounds, then fewest meetings beyond the required ones).
// Seat order then follows `seat_order` round by round; byes rotate by `choose_byes`.
std::vector<RoundPlan> round_robin(const std::vector<PlayerId>& pool, TableSizes sizes,
                                   int meetings, std::uint64_t seed);

}  // namespace elgrande::competition
