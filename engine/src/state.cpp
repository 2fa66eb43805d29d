#include "elgrande/engine/state.hpp"

#include <string>
#include <type_traits>

namespace elgrande {

std::optional<std::string> check(const Options& o) {
  if (o.players < 2 || o.players > kMaxPlayers) return "players must be 2 to 5";
  if (o.automa && o.players != 2) return "the automa plays only in 2-player games";
  if (o.four_stacks && o.players != 3 && !o.automa)
    return "four stacks is a 3-player option (the 2-player automa game always merges them)";
  if (o.first_player < -1 || o.first_player >= o.players) return "first_player must be one of the seats";
  if (o.edition != Edition::y2023 && o.edition != Edition::y1995) return "edition must be 2023 or 1995";
  if (o.rules_revision < 1 || o.rules_revision > kRulesRevision)
    return "rules_revision must be 1 to " + std::to_string(kRulesRevision);
  // The 1995 book knows neither; games begun before revision 3 may have mixed them in.
  if (o.edition == Edition::y1995 && o.rules_revision >= 3 && (o.automa || o.four_stacks))
    return "the 1995 edition has no automa and no four stacks (they are 2023 variants)";
  return std::nullopt;
}

int places_scored(const GameState& s) {
  if (s.options.players >= 4) return 3;
  if (s.options.players == 3 || s.options.automa) return 2;
  return 1;
}

Values current_values(const GameState& s, Area area) {
  for (int b = 0; b < kScoreboardCount; ++b)
    if (s.scoreboards[b] == area) return scoreboard_values(static_cast<Scoreboard>(b));
  return printed_values(area);
}

int caballeros_in_regions(const GameState& s, Colour colour) {
  int total = 0;
  for (int r = 0; r < kRegionCount; ++r) total += s.caballeros[r][colour];
  return total;
}

}  // namespace elgrande

namespace elgrande {
// A state copy is one memcpy and owns no heap memory (the benchmark's bytes_per_state).
static_assert(std::is_trivially_copyable_v<GameState>);
}  // namespace elgrande
