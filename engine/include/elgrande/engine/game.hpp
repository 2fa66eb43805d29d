#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "elgrande/engine/commands.hpp"
#include "elgrande/engine/decisions.hpp"
#include "elgrande/engine/events.hpp"
#include "elgrande/engine/options.hpp"
#include "elgrande/engine/state.hpp"

namespace elgrande {

// Why a command was refused. The state is untouched whenever one is returned.
struct Rejection {
  enum class Code : std::uint8_t {
    game_over,      // nothing more can be played
    not_your_turn,  // the seat owes no decision now
    wrong_command,  // the seat owes a different kind of decision
    illegal,        // the right kind of command, but the rules forbid it
    malformed,      // out-of-range values: unknown seat, colour, card, region...
  };
  Code code = Code::illegal;
  std::string reason;
};
std::string_view name(Rejection::Code code);

// Sets up a game: king, home regions, stacks, first player, and round 1 (or 2 in the short
// game) ready for power cards. Throws std::invalid_argument for unplayable options.
GameState new_game(const Options& options, std::uint64_t seed, Events* events = nullptr);

// Applies a seat's command: checks it against the same rules `pending` describes, applies
// it and every automatic step after it, and appends the events. On rejection nothing
// changes and nothing is appended.
std::optional<Rejection> apply(GameState& state, Seat seat, const Command& command,
                               Events& events);

inline bool is_over(const GameState& s) { return s.phase == Phase::game_over; }
std::uint8_t winners(const GameState& state);  // bit per seat, once over

// A stable 64-bit digest of the whole state (secrets included), the same on every build.
std::uint64_t hash(const GameState& state);

// Thrown when the engine finds its own state impossible (a bug, never bad input).
struct InvariantBroken : std::logic_error {
  using std::logic_error::logic_error;
};
void check_invariants(const GameState& state);

}  // namespace elgrande
