#pragma once

#include <cstdint>

#include "elgrande/engine/options.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/engine/state.hpp"

namespace elgrande::protocol {

// Plays a whole game with elgrande::random_command for every seat: the game is
// new_game(options, seed); the bots draw from Rng{seed}; when several seats owe an
// answer, the lowest seat answers first. Deterministic for given options and seed.
// Throws std::invalid_argument for unplayable options and std::runtime_error if the
// engine refuses its own random command or stalls (both engine bugs). `final_state`, if
// given, receives the finished game.
GameRecord play_random_game(const Options& options, std::uint64_t seed,
                            GameState* final_state = nullptr);

}  // namespace elgrande::protocol
