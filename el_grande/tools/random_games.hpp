#pragma once

// What the el_grande benchmarks share: full games played by the engine's random bot through
// the module, as the server would log them, and a quantile of timings.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "elgrande/games/module.hpp"

namespace elgrande::bench {

struct RandomGame {
  std::vector<games::Recorded> log;
  std::vector<games::MovePtr> moves;  // log[i]'s move, as played
};

// The game of `options` and `seed` played to its end, each owing seat (the lowest first)
// answering at random.
inline RandomGame random_game(const games::GameModule& module, const games::Json& options, std::uint64_t seed) {
  RandomGame played;
  auto game = module.setup(options, seed).game;
  for (std::uint64_t n = 0; !game->over(); ++n) {
    int seat = 0;
    while (!((game->owing() >> seat) & 1u)) ++seat;
    const games::MovePtr move = game->random_move(seat, seed * 7919 + n);
    game->apply(seat, *move);
    played.log.push_back({seat, move->record(), false});
    played.moves.push_back(move);
  }
  return played;
}

inline double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1))];
}

}  // namespace elgrande::bench
