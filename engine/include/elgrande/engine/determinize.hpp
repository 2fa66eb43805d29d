#pragma once

#include "elgrande/engine/rng.hpp"
#include "elgrande/engine/state.hpp"
#include "elgrande/engine/view.hpp"

namespace elgrande {

// A whole game state drawn from what one seat knows: everything public is copied from the
// view, and what the seat cannot see is drawn from `rng`, consistent with the view. Hidden
// are the others' hands (drawn from the values not played this round, as many as each
// holds), their disks (drawn from where each may point), the face-down stacks (drawn from
// their stack's cards not on offer), the automa's decks, and the generator. The castillo's
// counts are not among them: provinces, courts and regions are public, and each colour has
// 30 caballeros. A searching bot plays many such states forward (ai/), so that its choice is
// a function of its view alone.
//
// The view holds no history, so the draw ignores what a player could have remembered (which
// power cards another played in earlier rounds, which action cards left the stacks); the
// view's vote-in-progress is not known either, and an open veto window starts with no veto
// yet. For every seat's view v: view(determinize(v, rng), v.viewer) == v.
// Requires a seat's view (not a spectator's).
GameState determinize(const View& view, Rng& rng);

}  // namespace elgrande
