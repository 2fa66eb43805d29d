#pragma once

#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/engine/rng.hpp"
#include "elgrande/engine/state.hpp"

namespace elgrande {

// A uniformly random legal answer to the decision `seat` owes (it must owe one).
// Used by tests, the benchmark, server-side bot seats and timed-out seats.
Command random_command(const GameState& state, Seat seat, Rng& rng);

// A whole game with random_command for every seat: new_game(options, seed), the bots draw
// from Rng{seed}, and when several seats owe an answer the lowest answers first.
// Deterministic for given options and seed. Throws InvariantBroken if the engine refuses
// its own bot's command or never ends (both engine bugs). `final_state` gets the end.
GameRecord play_random_game(const Options& options, std::uint64_t seed,
                            GameState* final_state = nullptr);

}  // namespace elgrande
