#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "elgrande/engine/game.hpp"

namespace elgrande {

// Taking back one's own commands (docs/rules-notes.md#undo). A seat may take back its
// commands of the current turn, one by one, until something new was revealed to it, chance
// was drawn, or another seat acted: the policy players know from Board Game Arena.
//
// Who may take a command back: the seat's player, or nobody when a bot or the turn clock
// played it for them.
enum class Taker : std::uint8_t { the_seat, nobody };

// The history lives beside the state, not in it: the log holds the `Undo` commands, and
// replaying the log rebuilds the history. A snapshot is therefore taken only while the
// history is empty (the server's rule), so that the log after it rebuilds all of it.
class UndoHistory {
 public:
  // After `seat`'s command took the game from `before` to `after` with `events`: the command
  // can be taken back if it is the seat's own, left the turn with that seat alone, drew no
  // chance and told nobody anything private; anything else ends what can be taken back.
  void record(const GameState& before, Seat seat, Taker taker, const GameState& after,
              std::span<const Event> events);
  bool can_undo(Seat seat) const { return seat == seat_ && !before_.empty(); }
  bool empty() const { return before_.empty(); }
  // The game as it was before the last command still held, with the version after `now`'s;
  // requires can_undo of the seat asking.
  GameState undo(const GameState& now);
  friend bool operator==(const UndoHistory&, const UndoHistory&) = default;

 private:
  Seat seat_ = -1;
  std::vector<GameState> before_;  // oldest first
};

// `apply`, with the history: an `Undo` is carried out from it (or refused, the state and
// the history unchanged), any other command is applied and recorded in it.
std::optional<Rejection> apply(GameState& state, UndoHistory& history, Seat seat, const Command& command,
                               Events& events, Taker taker = Taker::the_seat);

}  // namespace elgrande
