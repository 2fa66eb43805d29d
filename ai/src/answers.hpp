#pragma once

// The answers a search compares, and the quick policy its playouts follow.

#include <vector>

#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/events.hpp"
#include "elgrande/engine/rng.hpp"
#include "elgrande/engine/state.hpp"
#include "elgrande/engine/view.hpp"

namespace elgrande::ai {

// Distinct legal answers to the viewer's decision. Where the choices are few (power cards,
// action cards, disks, vetoes, a region or a scoreboard to name) all of them; where they
// are many (how to spread caballeros, which to move or return) up to `width` of each part,
// the plain ones first (everything into one area, the most caballeros taken), the rest
// drawn. Every answer depends on the view alone, so it is legal in every state drawn from it.
std::vector<Command> candidates(const View& view, int width, Rng& rng);

// Plays the game on to its end, every seat answering with a quick policy that is the
// engine's random one, except that it takes and places as many caballeros as it may (a
// random player leaves half of them in the province, which no player would).
void play_out(GameState& state, Rng& rng, Events& scratch);

// The seat's share of the win in a finished game: 1/winners if it is among them, else 0.
double win_share(const GameState& over, Seat seat);

// How good the finished game is for `seat`, in [0, 1]: half for its share of the win, half
// for its margin over the best other score.
double reward(const GameState& over, Seat seat);

}  // namespace elgrande::ai
