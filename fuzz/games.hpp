#pragma once

// Games reached by random play, chosen by an input's first bytes: the engine_apply and
// snapshot targets start from real states of every variant and every stage of a game.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "elgrande/engine/game.hpp"

namespace elgrande::fuzz {

// byte 0: the variant (mod 12: 2 to 5 players, short game, automa, four stacks);
// byte 1: the seed (0..255); bytes 2-3: the random steps taken, little-endian (a game that
// ends sooner stops at its end).
inline constexpr std::size_t kGameBytes = 4;

struct GameChoice {
  Options options;
  std::uint64_t seed = 0;
  std::size_t steps = 0;
};

// Takes the choice off the front of `input`; nothing if it is too short.
std::optional<GameChoice> take_game_choice(std::span<const std::uint8_t>& input);
// The bytes take_game_choice reads as this choice (options must be one of the variants).
std::array<std::uint8_t, kGameBytes> game_choice_bytes(const GameChoice& choice);

// The state after `choice.steps` commands of play_random_game's bots (Rng{seed}, the lowest
// seat that owes a decision answers first), so a recorded random game's command at that
// step is legal there. Kept for later inputs: the same games come back again and again.
const GameState& state_after(const GameChoice& choice);

}  // namespace elgrande::fuzz
