#pragma once

#include <cstdint>
#include <vector>

#include "elgrande/competition/results.hpp"

// Drawing lots from an event's seed: the same seed gives the same draw on every machine, so
// anyone holding the seed can recompute a round.
namespace elgrande::competition {

// A well-mixed number for (seed, key) (splitmix64 of both).
std::uint64_t lot(std::uint64_t seed, std::uint64_t key);

// `players` in the order of their lots: a fair shuffle, fixed by the seed.
std::vector<PlayerId> shuffled(std::vector<PlayerId> players, std::uint64_t seed);

}  // namespace elgrande::competition
