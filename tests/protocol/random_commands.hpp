#pragma once

// Every command of random games of five variants (two to five players, the automa, four
// stacks, the 1995 edition), one taken back now and then: what the codec tests feed through
// each way of writing and reading commands.

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/undo.hpp"

namespace elgrande::testing {

// Seeds 1..seeds of each variant, every command in the order it was applied.
inline std::vector<Command> commands_of_random_games(std::uint64_t seeds) {
  std::vector<Command> commands;
  for (const Options& options : {Options{2, true, true, true}, Options{3, false, false, true}, Options{4, false, false, false},
                                 Options{5, true, false, false}, Options{4, false, false, false, -1, Edition::y1995}}) {
    for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
      GameState state = new_game(options, seed);
      UndoHistory history;
      Rng rng{seed};
      Events events;
      while (!is_over(state)) {
        const Seat seat = pending(state)[0].seat;
        const Command command = history.can_undo(seat) && rng.below(4) == 0 ? Command{Undo{}}
                                                                              : random_command(state, seat, rng);
        commands.push_back(command);
        events.clear();
        REQUIRE_FALSE(apply(state, history, seat, command, events));
      }
    }
  }
  return commands;
}

}  // namespace elgrande::testing
