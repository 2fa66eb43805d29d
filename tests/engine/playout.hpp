#pragma once

// Random full games for the property tests: every seat played by the engine's bot.

#include <cstdlib>
#include <string>
#include <vector>

#include "elgrande/engine/bot.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/game.hpp"
#include "elgrande/engine/record.hpp"

namespace elgrande::testing {

struct Variant {
  std::string label;
  Options options;
};

inline std::vector<Variant> all_variants() {
  std::vector<Variant> out;
  for (bool short_game : {false, true}) {
    const std::string suffix = short_game ? ", short game" : "";
    out.push_back({"2 players" + suffix, Options{2, short_game, false, false}});
    out.push_back({"2 players with automa" + suffix, Options{2, short_game, true, false}});
    out.push_back({"3 players" + suffix, Options{3, short_game, false, false}});
    out.push_back({"3 players, four stacks" + suffix, Options{3, short_game, false, true}});
    out.push_back({"4 players" + suffix, Options{4, short_game, false, false}});
    out.push_back({"5 players" + suffix, Options{5, short_game, false, false}});
  }
  // The 1995 edition's differences (docs/rules-notes.md#editions), in a full and a short game.
  out.push_back({"4 players, 1995 edition", Options{4, false, false, false, -1, Edition::y1995}});
  out.push_back({"3 players, 1995 edition, short game", Options{3, true, false, false, -1, Edition::y1995}});
  return out;
}

// Fewer games under the sanitizers, which run the same code ~20x slower.
inline int games_per_variant(int normal) {
  return std::getenv("ELGRANDE_SANITIZED") ? normal / 10 : normal;
}

// The seat a driver answers for next: the first that owes a decision.
inline Seat next_seat(const GameState& state) { return pending(state)[0].seat; }

}  // namespace elgrande::testing
