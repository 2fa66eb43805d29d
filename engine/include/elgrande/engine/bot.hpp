#pragma once

#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/record.hpp"
#include "elgrande/engine/rng.hpp"
#include "elgrande/engine/state.hpp"
#include "elgrande/engine/view.hpp"

namespace elgrande {

// A uniformly random legal answer to the viewer's own decision, drawn from nothing but the
// view, so a remote client that only sees its view runs the same policy as the server.
// Throws std::logic_error if `view.decision` is empty or offers no choice at all.
Command random_command(const View& view, Rng& rng);

// The same as random_command(view(state, seat), rng), without building the view: `seat`
// must owe a decision. Used by tests, the benchmark, server-side bot seats and timed-out
// seats.
Command random_command(const GameState& state, Seat seat, Rng& rng);
// The same for a decision already at hand (a game's `options`, one of its `pending`).
Command random_command(const Options& options, const Decision& decision, Rng& rng);

// A whole game with random_command for every seat: new_game(options, seed), the bots draw
// from Rng{seed}, and when several seats owe an answer the lowest answers first.
// Deterministic for given options and seed. Throws InvariantBroken if the engine refuses
// its own bot's command or never ends (both engine bugs). `final_state` gets the end.
GameRecord play_random_game(const Options& options, std::uint64_t seed,
                            GameState* final_state = nullptr);

}  // namespace elgrande
