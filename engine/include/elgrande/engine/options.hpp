#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace elgrande {

// Which rulebook a table plays by where the two differ (docs/rules-notes.md#editions): the
// 2023 Polish edition, or the 1995 original.
enum class Edition : std::uint8_t { y2023, y1995 };

// The engine's rules revision. A fix that changes what is legal comes with a new one, and a
// game goes on under the revision it began with, so that its log replays as it was played.
//   1: to November 2026. Laying the veto card was a special action, skippable and vetoable.
//   2: taking the veto card lays it at once, as both rulebooks say.
//   3: the 1995 court card takes from the province only; the 1995 edition has no automa and
//      no four stacks.
inline constexpr int kRulesRevision = 3;

// A table's choice of variant. Everything a game's rules depend on besides the seed.
struct Options {
  int players = 4;          // 2..5 human (or bot) seats
  bool short_game = false;  // 6 rounds: 2, 3, 5, 6, 8, 9
  bool automa = false;      // 2 players only: the 2023 automa as a third colour
  bool four_stacks = false; // 3 players only: stacks 2 and 3 merged (always so with the automa)
  // The seat that is first player in round 1; −1: drawn from the seed, as the rulebook says.
  // A tournament sets 0, having chosen its seat order to balance who begins.
  int first_player = -1;
  Edition edition = Edition::y2023;
  int rules_revision = kRulesRevision;  // 1..kRulesRevision; a new game has the latest
  friend bool operator==(const Options&, const Options&) = default;
};

// Why options are unplayable, or nothing if they are fine.
std::optional<std::string> check(const Options& options);

}  // namespace elgrande
