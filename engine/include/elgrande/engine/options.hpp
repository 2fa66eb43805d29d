#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace elgrande {

// A table's choice of variant. Everything a game's rules depend on besides the seed.
struct Options {
  int players = 4;          // 2..5 human (or bot) seats
  bool short_game = false;  // 6 rounds: 2, 3, 5, 6, 8, 9
  bool automa = false;      // 2 players only: the 2023 automa as a third colour
  bool four_stacks = false; // 3 players only: stacks 2 and 3 merged (always so with the automa)
  // The seat that is first player in round 1; −1: drawn from the seed, as the rulebook says.
  // A tournament sets 0, having chosen its seat order to balance who begins.
  int first_player = -1;
  friend bool operator==(const Options&, const Options&) = default;
};

// Why options are unplayable, or nothing if they are fine.
std::optional<std::string> check(const Options& options);

}  // namespace elgrande
