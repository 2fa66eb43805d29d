#pragma once

#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/rng.hpp"
#include "elgrande/engine/state.hpp"

namespace elgrande {

// A uniformly random legal answer to the decision `seat` owes (it must owe one).
// Used by tests, the benchmark, server-side bot seats and timed-out seats.
Command random_command(const GameState& state, Seat seat, Rng& rng);

}  // namespace elgrande
